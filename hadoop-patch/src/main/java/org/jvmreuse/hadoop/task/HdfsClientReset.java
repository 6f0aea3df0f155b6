package org.jvmreuse.hadoop.task;

import static org.jvmreuse.hadoop.names.HadoopNames.HdfsClientReset.CLIENT_CONTEXTS;
import static org.jvmreuse.hadoop.names.HadoopNames.HdfsClientReset.LEASE_RENEWERS;
import static org.jvmreuse.hadoop.names.HadoopNames.HdfsClientReset.LEASE_RENEWERS_INSTANCE;
import static org.jvmreuse.hadoop.names.HadoopNames.HdfsClientReset.LOCAL_DATANODE_INFO;
import static org.jvmreuse.hadoop.names.HadoopNames.HdfsClientReset.PEER_CACHE_CLEAR;
import static org.jvmreuse.hadoop.names.HadoopNames.HdfsClientReset.PEER_CACHE_INSTANCE;

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
        PEER_CACHE_INSTANCE.ifPresent(instance -> SharedClasses.loaded(instance.owner()).ifPresent(peerCache -> {
            synchronized (peerCache) {
                Object cache = Fields.getStatic(peerCache, instance);
                if (cache != null) {
                    Fields.call(cache, PEER_CACHE_CLEAR.orElseThrow()); // closes the sockets; close() would join the stopped daemon
                    Fields.setStatic(peerCache, instance, null);
                }
            }
        }));
        // 3.x: not reset yet, so a slot whose task made an HDFS client context does not serve again
        CLIENT_CONTEXTS.ifPresent(contexts -> SharedClasses.loaded(contexts.owner()).ifPresent(c -> {
            synchronized (c) {
                Map<?, ?> made = (Map<?, ?>) Fields.getStatic(c, contexts);
                if (!made.isEmpty()) {
                    throw new IllegalStateException("the task left HDFS client contexts " + made.keySet()
                            + ", whose caches and threads are not reset on Hadoop 3.x yet (issue 31)");
                }
            }
        }));
        SharedClasses.loaded(LEASE_RENEWERS_INSTANCE.owner()).ifPresent(factory -> {
            Object instance = Fields.getStatic(factory, LEASE_RENEWERS_INSTANCE);
            synchronized (instance) {
                ((Map<?, ?>) Fields.get(instance, LEASE_RENEWERS)).clear();
            }
        });
        SharedClasses.loaded(LOCAL_DATANODE_INFO.owner()).ifPresent(legacy -> {
            synchronized (legacy) {
                ((Map<?, ?>) Fields.getStatic(legacy, LOCAL_DATANODE_INFO)).clear();
            }
        });
    }
}
