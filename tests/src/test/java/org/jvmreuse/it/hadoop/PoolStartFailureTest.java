package org.jvmreuse.it.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A pool launch that exits while the cluster starts (here every pool JVM refuses its options)
 * never fails the start: the cluster engine warns loudly and marks the launch as gone, and every
 * container of a job then runs in a new JVM (the pool's client falls back when no pool answers),
 * where the job succeeds.
 */
class PoolStartFailureTest {
    @Test
    void aPoolLaunchThatExitsDuringTheStartLeavesTheClusterOnTheStockPath() throws Exception {
        try (HadoopCluster cluster = HadoopCluster.start(Map.of("JVMREUSE_JVM_OPTS", "-XX:+NoSuchJvmReuseTestOption"), 1,
                "--pool", "--slots", "2")) {
            String started = cluster.startOutput().err();
            assertTrue(started.contains("WARNING: the pool of node 1 did NOT start: its containers run the STOCK way"), started);
            assertTrue(started.contains("the launch exited"), started);
            assertTrue(Files.exists(cluster.dir.resolve("pools.exited")), "no marker of the exited launch");

            Job pi = cluster.example("pi", HadoopCluster.POOLED, "2", "10");
            assertTrue(pi.succeeded(), pi.toString());
            Map<String, Long> counters = pi.counters();
            assertEquals(3L, counters.get("Task launches/Tasks run in a new JVM"), counters.toString());
            assertEquals(0L, counters.getOrDefault("Task launches/Tasks run in a pool slot", 0L), counters.toString());
        }
    }
}
