package org.jvmreuse.hadoop.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.jvmreuse.hadoop.names.HadoopNames.CommonsLoggingReset.FACTORIES;
import static org.jvmreuse.hadoop.names.HadoopNames.HdfsClientReset.PEER_CACHE_INSTANCE;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.jvmreuse.hadoop.task.job.CodecPoolUse;
import org.jvmreuse.hadoop.task.job.ConfigurationUse;
import org.jvmreuse.hadoop.task.job.IpcClientUse;
import org.jvmreuse.hadoop.task.job.IpcSender;
import org.jvmreuse.hadoop.task.job.LogsALine;
import org.jvmreuse.hadoop.task.job.PeerCacheUse;
import org.jvmreuse.hadoop.task.job.TaskStatics;
import org.jvmreuse.pool.slot.RunOutcome;

/** Resets of single statics, each checked through what the next run sees. */
class SmallStaticsTest {
    @Test
    void defaultResourcesAddedByAJobAreGone() throws Exception {
        HadoopRuns.run(ConfigurationUse.class, "job-site.xml");
        String resources = HadoopRuns.run(ConfigurationUse.class).printed("resources");
        assertFalse(resources.contains("job-site.xml"), resources);
        assertTrue(resources.contains("mapred-default.xml"), resources);
    }

    @Test
    void pooledCompressorsAreNotHandedToTheNextRun() throws Exception {
        String first = HadoopRuns.run(CodecPoolUse.class).printed("compressor");
        assertNotEquals(first, HadoopRuns.run(CodecPoolUse.class).printed("compressor"));
    }

    @Test
    void rpcClientsAndStaticResolutionsOfARunAreDropped() throws Exception {
        String first = HadoopRuns.run(IpcClientUse.class).printed("client");
        RunOutcome second = HadoopRuns.run(IpcClientUse.class);
        assertEquals("null", second.printed("resolution"));
        assertNotEquals(first, second.printed("client"));
    }

    @Test
    void taskStaticsGetTheirInitialValues() throws Exception {
        HadoopRuns.run(TaskStatics.class, "set");
        RunOutcome next = HadoopRuns.run(TaskStatics.class);
        String limit = next.printed("counterLimit");
        assertEquals(limit.substring(limit.indexOf(" of ") + 4), limit.substring(0, limit.indexOf(" of ")));
        assertEquals(".merged", next.printed("mergedOutputPrefix"));
        assertEquals("false", next.printed("systemExitDisabled"));
        assertEquals("false", next.printed("includeFinalMerge"));
    }

    /** A thread of IPC's shared executor is the slot's: it outlives the run that first used it, and holds no run's loader. */
    @Test
    void ipcSenderThreadsBelongToTheSlot() throws Exception {
        String name = HadoopRuns.run(IpcSender.class).printed("sender");
        ClassLoader hadoop = HadoopRuns.sharedClass("org.apache.hadoop.ipc.Client").getClassLoader();
        Thread sender = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals(name) && t.getContextClassLoader() == hadoop).findFirst()
                .orElseThrow(() -> new AssertionError(name + " ended with the run"));
        assertTrue(sender.isDaemon());
    }

    @Test
    void commonsLoggingForgetsTheRunsLoader() throws Exception {
        ClassLoader loader = HadoopRuns.run(LogsALine.class, "logged").loader().get();
        Map<?, ?> factories = (Map<?, ?>) Fields.getStatic(HadoopRuns.sharedClass(FACTORIES.owner().name()), FACTORIES);
        assertFalse(loader != null && factories.containsKey(loader));
    }

    @Test
    void hdfsPeerCacheIsForgotten() throws Exception {
        String first = HadoopRuns.run(PeerCacheUse.class).printed("peerCache");
        var instance = PEER_CACHE_INSTANCE.orElseThrow(); // Hadoop 2.2's
        assertNull(Fields.getStatic(HadoopRuns.sharedClass(instance.owner().name()), instance));
        assertNotEquals(first, HadoopRuns.run(PeerCacheUse.class).printed("peerCache"));
    }
}
