package org.jvmreuse.hadoop3.task.job;

import java.net.URI;
import java.util.concurrent.ThreadPoolExecutor;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSClient;
import org.apache.hadoop.hdfs.DFSHedgedReadMetrics;

/**
 * Makes a DFSClient (Hadoop 3.x; no NameNode is called) with hedged reads on, as a job that asks
 * for them: DFSClient's JVM-wide striped-read and hedged-read pools are made with this run's
 * sizes ({@code args[0]} each). With "use", a read of each pool's keeps one of its workers alive
 * past the run, and a hedged read is counted. Prints each pool's size (0: none) and the count.
 */
public final class DfsReadPoolsUser {
    public static void main(String[] args) throws Exception {
        if (args.length > 0) {
            Configuration conf = new Configuration();
            conf.setInt("dfs.client.hedged.read.threadpool.size", Integer.parseInt(args[0]));
            conf.setInt("dfs.client.read.striped.threadpool.size", Integer.parseInt(args[0]));
            new DFSClient(URI.create("hdfs://127.0.0.1:1"), conf);
            if (args.length > 1) {
                pool("STRIPED_READ_THREAD_POOL").submit(() -> { }).get();
                pool("HEDGED_READ_THREAD_POOL").submit(() -> { }).get();
                hedgedReads().incHedgedReadOps();
            }
        }
        System.out.println("striped=" + size("STRIPED_READ_THREAD_POOL"));
        System.out.println("hedged=" + size("HEDGED_READ_THREAD_POOL"));
        System.out.println("hedgedReads=" + hedgedReads().getHedgedReadOps());
    }

    private static ThreadPoolExecutor pool(String name) throws ReflectiveOperationException {
        return (ThreadPoolExecutor) Statics.get(DFSClient.class, name);
    }

    private static DFSHedgedReadMetrics hedgedReads() throws ReflectiveOperationException {
        return (DFSHedgedReadMetrics) Statics.get(DFSClient.class, "HEDGED_READ_METRIC");
    }

    private static int size(String name) throws ReflectiveOperationException {
        ThreadPoolExecutor pool = pool(name);
        return pool == null ? 0 : pool.getMaximumPoolSize();
    }
}
