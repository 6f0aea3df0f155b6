package org.jvmreuse.hadoop.task.job;

import java.io.File;
import org.apache.commons.logging.LogFactory;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.SequenceFile;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.WritableComparator;
import org.apache.hadoop.io.WritableFactories;
import org.apache.hadoop.io.WritableName;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.ipc.WritableRpcEngine;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.metrics.MetricsUtil;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.metrics2.source.JvmMetrics;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.util.ReflectionUtils;
import org.apache.hadoop.util.ShutdownHookManager;

/**
 * A task-like program that leaves a job's classes in every shared registry it can reach, working
 * in the directory the system property "job.dir" names. It prints the comparator registered for
 * Text as it starts, and the key class and value it wrote and read back; with {@code args[0]}
 * "halt" it halts at the end.
 */
public final class RegistryJob {
    public static void main(String[] args) throws Exception {
        System.out.println("textComparator=" + WritableComparator.get(Text.class).getClass().getName());
        JobConf conf = new JobConf();
        WritableComparator.get(JobKey.class);
        ReflectionUtils.newInstance(JobKey.class, conf);
        WritableFactories.setFactory(JobKey.class, JobKey::new);
        WritableName.setName(JobKey.class, "jobkey");
        WritableComparator.define(Text.class, new TextOverride());
        RPC.setProtocolEngine(conf, JobProtocol.class, WritableRpcEngine.class);
        ShutdownHookManager.get().addShutdownHook(() -> LogFactory.getLog(RegistryJob.class).info("hook"), 5);
        LogFactory.getLog(RegistryJob.class).info("running");
        NetUtils.addStaticResolution("job-host", "localhost");
        MetricsUtil.getContext("mapred").registerUpdater(unused -> { });
        DefaultMetricsSystem.initialize("MapTask");
        JvmMetrics.initSingleton("job", "session");
        DefaultMetricsSystem.instance().register("JobMetrics", "job", new JobMetrics());
        UserGroupInformation.getLoginUser();

        Path file = new Path(new File(System.getProperty("job.dir"), "keys.seq").toURI());
        try (SequenceFile.Writer out = SequenceFile.createWriter(conf, SequenceFile.Writer.file(file),
                SequenceFile.Writer.keyClass(JobKey.class), SequenceFile.Writer.valueClass(Text.class))) {
            out.append(new JobKey(1), new Text("one"));
        }
        try (SequenceFile.Reader in = new SequenceFile.Reader(conf, SequenceFile.Reader.file(file))) {
            JobKey key = new JobKey();
            Text value = new Text();
            in.next(key, value);
            System.out.println("read=" + in.getKeyClassName() + "=" + value);
        }
        if (args.length > 0 && args[0].equals("halt")) {
            Runtime.getRuntime().halt(0);
        }
    }
}
