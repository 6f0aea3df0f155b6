package org.jvmreuse.hadoop3.task.job;

import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.audit.CommonAuditContext;
import org.apache.hadoop.mapreduce.util.MRJobConfUtil;
import org.apache.hadoop.security.ssl.DelegatingSSLSocketFactory;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * Prints statics of Hadoop 3.x that a run may set and a later run reads: whether
 * FileSystem.Statistics' cleaner thread is alive (after using the local file system), the global
 * audit context's entries, the task-progress logging thresholds an MRAppMaster reads and the
 * default SSL socket factory's channel mode. With {@code args[0]} ("set &lt;delta&gt;
 * &lt;seconds&gt;"), first sets them as a run does: it runs a Tool through ToolRunner (the audit
 * context's command, "cm"), sets the thresholds from a configuration, as TaskAttemptListenerImpl
 * does, and makes the default SSL socket factory, as S3A and ABFS do.
 */
public final class TaskStatics3Seen {
    public static void main(String[] args) throws Exception {
        FileSystem.getLocal(new Configuration()).exists(new org.apache.hadoop.fs.Path("."));
        if (args.length > 0) {
            ToolRunner.run(new NoTool(), new String[0]);
            Configuration conf = new Configuration(false);
            conf.set("mapreduce.task.log.progress.delta.threshold", args[1]);
            conf.set("mapreduce.task.log.progress.wait.interval-seconds", args[2]);
            MRJobConfUtil.setTaskLogProgressDeltaThresholds(conf);
            DelegatingSSLSocketFactory.initializeDefaultFactory(DelegatingSSLSocketFactory.SSLChannelMode.Default_JSSE);
        }
        Thread cleaner = (Thread) Statics.get(FileSystem.Statistics.class, "STATS_DATA_CLEANER");
        System.out.println("cleanerAlive=" + cleaner.isAlive());
        Map<String, String> global = new TreeMap<>();
        for (Map.Entry<String, String> e : CommonAuditContext.getGlobalContextEntries()) {
            global.put(e.getKey(), e.getValue());
        }
        System.out.println("auditKeys=" + global.keySet());
        System.out.println("auditProcess=" + CommonAuditContext.PROCESS_ID.equals(global.get("ps")));
        System.out.println("minDelta=" + MRJobConfUtil.getTaskProgressMinDeltaThreshold());
        System.out.println("maxWait=" + MRJobConfUtil.getTaskProgressWaitDeltaTimeThreshold());
        DelegatingSSLSocketFactory ssl = (DelegatingSSLSocketFactory) Statics.get(DelegatingSSLSocketFactory.class, "instance");
        System.out.println("sslChannelMode=" + (ssl == null ? "none" : ssl.getChannelMode()));
    }

    /** A Tool that does nothing. */
    public static final class NoTool extends Configured implements Tool {
        @Override
        public int run(String[] args) {
            return 0;
        }
    }
}
