package org.jvmreuse.hadoop.task;

import java.util.Map;

/**
 * The HDFS client's JVM-wide caches (by class name: hdfs may be absent). Their daemon threads
 * were started by the task and stopped with it, so what they hold is dead weight that still
 * points at the run's DFSClients, user and configuration: the socket cache to data nodes, the
 * lease renewers per (name node, user), and the legacy short-circuit readers' data node proxies.
 */
final class HdfsClientReset {
    private HdfsClientReset() {
    }

    static void afterRun() {
        SharedClasses.loaded("org.apache.hadoop.hdfs.PeerCache").ifPresent(peerCache -> {
            synchronized (peerCache) {
                Object cache = Fields.getStatic(peerCache, "instance");
                if (cache != null) {
                    Fields.call(cache, "clear"); // closes the sockets; close() would join the stopped daemon
                    Fields.setStatic(peerCache, "instance", null);
                }
            }
        });
        SharedClasses.loaded("org.apache.hadoop.hdfs.LeaseRenewer$Factory").ifPresent(factory -> {
            Object instance = Fields.getStatic(factory, "INSTANCE");
            synchronized (instance) {
                ((Map<?, ?>) Fields.get(instance, "renewers")).clear();
            }
        });
        SharedClasses.loaded("org.apache.hadoop.hdfs.BlockReaderLocalLegacy").ifPresent(legacy -> {
            synchronized (legacy) {
                ((Map<?, ?>) Fields.getStatic(legacy, "localDatanodeInfoMap")).clear();
            }
        });
    }
}
