package org.jvmreuse.hadoop3.task.job;

import java.util.Map;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.ClientContext;

/** Prints the HDFS client contexts this run finds (HdfsClientContextUser's), and the peers its default context has. */
public final class HdfsClientContextsSeen {
    public static void main(String[] args) throws Exception {
        System.out.println("contexts=" + new TreeSet<>(((Map<?, ?>) Statics.get(ClientContext.class, "CACHES")).keySet()));
        System.out.println("peers=" + ClientContext.get("default", new Configuration()).getPeerCache().size());
    }
}
