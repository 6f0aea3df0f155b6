package org.jvmreuse.hadoop.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import org.apache.commons.logging.LogFactory;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.compress.CodecPool;
import org.apache.hadoop.io.compress.Compressor;
import org.apache.hadoop.io.compress.DefaultCodec;
import org.apache.hadoop.ipc.Client;
import org.apache.hadoop.ipc.ClientCache;
import org.apache.hadoop.ipc.ProtobufRpcEngine;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.Task;
import org.apache.hadoop.mapreduce.counters.Limits;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.util.ExitUtil;
import org.junit.jupiter.api.Test;

/** Resets of single statics, each checked through what the next run would see. */
class SmallStaticsTest {
    @Test
    void defaultResourcesAddedByAJobAreGone() throws Exception {
        run(() -> Configuration.addDefaultResource("job-site.xml"));
        String resources = run(() -> new Configuration().toString());
        assertFalse(resources.contains("job-site.xml"), resources);
        assertTrue(resources.contains("mapred-default.xml"), resources);
    }

    @Test
    void pooledCompressorsAreNotHandedToTheNextRun() throws Exception {
        Compressor first = run(() -> {
            Compressor c = CodecPool.getCompressor(codec());
            CodecPool.returnCompressor(c);
            return c;
        });
        Compressor second = run(() -> CodecPool.getCompressor(codec()));
        assertNotSame(first, second);
    }

    @Test
    void rpcClientsAndStaticResolutionsOfARunAreDropped() throws Exception {
        Client first = run(() -> {
            NetUtils.addStaticResolution("job-host", "localhost");
            return clients().getClient(new Configuration()); // never stopped, as after System.exit
        });
        Client second = run(() -> {
            assertNull(NetUtils.getStaticResolution("job-host"));
            Client c = clients().getClient(new Configuration());
            clients().stopClient(c);
            return c;
        });
        assertNotSame(first, second);
    }

    @Test
    void taskStaticsGetTheirInitialValues() throws Exception {
        run(() -> {
            Counters.MAX_COUNTER_LIMIT = 5;
            Task.MERGED_OUTPUT_PREFIX = ".job";
            ExitUtil.disableSystemExit();
            Fields.callStatic(Class.forName("org.apache.hadoop.mapred.Merger"), "considerFinalMergeForProgress");
            return null;
        });
        assertEquals(Limits.COUNTERS_MAX, Counters.MAX_COUNTER_LIMIT);
        assertEquals(".merged", Task.MERGED_OUTPUT_PREFIX);
        assertEquals(false, Fields.getStatic(ExitUtil.class, "systemExitDisabled"));
        assertEquals(false, Fields.getStatic(Class.forName("org.apache.hadoop.mapred.Merger"), "includeFinalMerge"));
    }

    @Test
    void ipcSenderThreadsBelongToTheSlot() throws Exception {
        ThreadGroup runGroup = Thread.currentThread().getThreadGroup();
        Thread sender = run(() -> ((ExecutorService) Fields.getStatic(Client.class, "SEND_PARAMS_EXECUTOR"))
                .submit(Thread::currentThread).get());
        assertFalse(runGroup.parentOf(sender.getThreadGroup()), "a run's threads would be stopped with it");
        assertSame(SharedClasses.loader(), sender.getContextClassLoader());
        assertTrue(sender.isDaemon());
    }

    @Test
    void commonsLoggingForgetsTheRunsLoader() throws Exception {
        RunLoader loader = new RunLoader();
        new SlotRun(loader).run(true, () -> LogFactory.getLog("org.example.Job"));
        Map<?, ?> factories = (Map<?, ?>) Fields.getStatic(LogFactory.class, "factories");
        assertFalse(factories.containsKey(loader));
    }

    @Test
    void hdfsPeerCacheIsForgotten() throws Exception {
        Class<?> peerCache = Class.forName("org.apache.hadoop.hdfs.PeerCache"); // package-private class
        Method getInstance = peerCache.getMethod("getInstance", int.class, long.class);
        getInstance.setAccessible(true);
        Object first = run(() -> getInstance.invoke(null, 4, 1000L));
        assertNull(Fields.getStatic(peerCache, "instance"));
        assertNotSame(first, run(() -> getInstance.invoke(null, 4, 1000L)));
    }

    private static DefaultCodec codec() {
        DefaultCodec codec = new DefaultCodec();
        codec.setConf(new Configuration());
        return codec;
    }

    private static ClientCache clients() {
        return (ClientCache) Fields.getStatic(ProtobufRpcEngine.class, "CLIENTS");
    }

    private static <T> T run(java.util.concurrent.Callable<T> program) throws Exception {
        return new SlotRun(new RunLoader()).run(true, program);
    }

    private static void run(Runnable program) throws Exception {
        run(() -> {
            program.run();
            return null;
        });
    }
}
