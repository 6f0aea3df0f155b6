package org.jvmreuse.hadoop.task.job;

/** Makes the HDFS client's peer cache (a package-private singleton) and prints which (its identity). */
public final class PeerCacheUse {
    public static void main(String[] args) throws Exception {
        Object cache = Statics.call(Class.forName("org.apache.hadoop.hdfs.PeerCache"), "getInstance",
                new Class<?>[] {int.class, long.class}, 4, 1000L);
        System.out.println("peerCache=" + System.identityHashCode(cache));
    }
}
