package org.jvmreuse.hadoop.task;

import static org.jvmreuse.hadoop.names.HadoopNames.DfsClientReadPools.DFS_CLIENT;
import static org.jvmreuse.hadoop.names.HadoopNames.DfsClientReadPools.HEDGED_READ_COUNTS;
import static org.jvmreuse.hadoop.names.HadoopNames.DfsClientReadPools.HEDGED_READ_METRIC;
import static org.jvmreuse.hadoop.names.HadoopNames.DfsClientReadPools.POOLS;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.LongAdder;
import org.jvmreuse.hadoop.names.FieldName;

/**
 * Hadoop 3.x DFSClient's JVM-wide read pools: the striped-read pool, which the first DFSClient
 * makes with its configuration's size, and the hedged-read pool of clients that turn hedged
 * reads on, with the hedged reads' counts every client reports. A new JVM starts without them.
 * When a run ends, before the slot stops its threads, its pools are shut down (their workers end,
 * and a shut-down pool replaces none) and forgotten, and the counts start from 0 again: the next
 * run's first client makes pools of its own sizes.
 */
final class DfsClientReadPools {
    private DfsClientReadPools() {
    }

    static void shutDown() {
        POOLS.ifPresent(pools -> SharedClasses.loaded(DFS_CLIENT).ifPresent(dfsClient -> {
            synchronized (dfsClient) { // as DFSClient makes them
                for (FieldName pool : pools) {
                    Object executor = Fields.getStatic(dfsClient, pool);
                    if (executor != null) {
                        ((ExecutorService) executor).shutdownNow();
                        Fields.setStatic(dfsClient, pool, null);
                    }
                }
            }
            Object metrics = Fields.getStatic(dfsClient, HEDGED_READ_METRIC.orElseThrow());
            for (FieldName count : HEDGED_READ_COUNTS.orElseThrow()) {
                ((LongAdder) Fields.get(metrics, count)).reset();
            }
        }));
    }
}
