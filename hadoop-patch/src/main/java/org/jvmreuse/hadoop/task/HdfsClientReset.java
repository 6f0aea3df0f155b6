package org.jvmreuse.hadoop.task;

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
 * lease renewers per (name node, user), and the legacy short-circuit readers' data node proxies;
 * on 3.x the socket cache is one of each client context's caches ({@link HdfsClientContexts}).
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
        HdfsClientContexts.afterRun(); // 3.x: per context, no JVM-wide peer cache
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
