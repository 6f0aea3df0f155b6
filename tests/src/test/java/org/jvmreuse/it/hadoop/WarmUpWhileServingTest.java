package org.jvmreuse.it.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.jvmreuse.it.Pool;

/**
 * A pool cluster started the default way (JVMREUSE_WAIT_WARMUP=0) is ready when its daemons are,
 * while its slots still warm up (here held in their warm-up by a gate file): a job then runs the
 * stock way, every task and the MRAppMaster in a new JVM, none waiting for a slot; once the
 * slots are up, the next job's tasks run in them. Here the warm-up program fails once the gate
 * opens: each slot's log says why, it runs it no more, and serves.
 */
class WarmUpWhileServingTest {
    private static final String LAUNCHES = "Task launches/";
    private static HadoopCluster cluster;
    private static Path gate;

    @BeforeAll
    static void startCluster() throws Exception {
        gate = Files.createTempDirectory(Path.of("/tmp"), "jrt-gate-").resolve("open");
        cluster = HadoopCluster.start(Map.of("JVMREUSE_WAIT_WARMUP", "0", "JVMREUSE_TEST_GATE", gate.toString(),
                "JVMREUSE_WARMUP_MAIN", "org.jvmreuse.it.programs.WarmupGate",
                "JVMREUSE_WARMUP_CP", Pool.REPO.resolve("tests/target/test-classes").toString(), "JVMREUSE_WARMUP_MAIN_RUNS", "3"),
                1, "--pool", "--slots", "2");
    }

    @AfterAll
    static void stopCluster() throws Exception {
        if (gate != null) {
            Files.writeString(gate, "open"); // lets the warm-ups end, so that the pool stops at once
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    private Job sleepJob(Path jar, String name) throws Exception {
        List<String> args = new ArrayList<>(JobJars.main("SleepJob"));
        args.addAll(List.of("-Dsleep.ms=10", JobJars.lines(cluster.dir.resolve("data"), name + "-in", 2).toString(),
                cluster.dir.resolve("data/" + name).toString()));
        Job job = cluster.job(jar, args);
        assertTrue(job.succeeded(), name + " failed:\n" + job);
        return job;
    }

    @Test
    void readyWhileSlotsWarmUpJobsGoStockUntilSlotsServe() throws Exception {
        String status = cluster.poolStatus(1);
        assertTrue(status.contains("starting 2"), "the cluster was ready only once the slots were: " + status);
        Path jar = JobJars.withMarker(cluster.dir, "warming");

        Job during = sleepJob(jar, "during-warm-up");
        assertEquals(0L, during.counters().get(LAUNCHES + "Tasks run in a pool slot"), during.toString());
        assertEquals(2L, during.counters().get(LAUNCHES + "Tasks run in a new JVM"), during.toString());
        String nmLog = Files.readString(cluster.dir.resolve("logs/nodemanager1.log"));
        assertTrue(nmLog.contains("application master handed to the JVM pool"), "the AM was not offered to the pool");
        status = cluster.poolStatus(1);
        assertTrue(status.contains("starting 2"), "the slots left their warm-up before the gate opened: " + status);
        assertTrue(status.matches("(?s).*fallbacks [3-9].*"), "the AM and both tasks fell back: " + status);
        String poolLog;
        try (var logs = Files.list(cluster.dir.resolve("pool1/logs"))) {
            StringBuilder all = new StringBuilder();
            for (Path f : logs.filter(f -> f.toString().endsWith(".log")).toList()) {
                all.append(Files.readString(f));
            }
            poolLog = all.toString();
        }
        long atOnce = poolLog.lines().filter(l -> l.contains("goes to a new JVM: the pool is still warming up")).count();
        assertTrue(atOnce >= 3, "the AM and both tasks went to new JVMs at once, none waited for a slot:\n" + poolLog);

        Files.writeString(gate, "fail");
        long deadline = System.nanoTime() + 120_000_000_000L;
        while (!cluster.poolStatus(1).contains("starting 0")) {
            assertTrue(System.nanoTime() < deadline, "the slots did not come up: " + cluster.poolStatus(1));
            Thread.sleep(200);
        }
        int failedWarmups = 0;
        try (var logs = Files.list(cluster.dir.resolve("pool1/logs"))) {
            for (Path slot : logs.filter(f -> f.getFileName().toString().startsWith("slot")).toList()) {
                String log = Files.readString(slot);
                if (log.contains("a spare: waits, not warmed up")) {
                    continue;
                }
                failedWarmups++;
                assertTrue(log.contains("warm-up run 1 of org.jvmreuse.it.programs.WarmupGate ended with exit code 1: Exception in "
                        + "thread \"main\" java.lang.IllegalStateException: the test's warm-up fails after its gate; the slot serves "
                        + "without its other runs") && log.contains("with 0 runs of org.jvmreuse.it.programs.WarmupGate"), slot + ":\n" + log);
            }
        }
        assertEquals(2, failedWarmups, "slots whose warm-up failed");
        long before = cluster.pooledRuns();
        Job after = sleepJob(jar, "after-warm-up");
        assertTrue(after.counters().get(LAUNCHES + "Tasks run in a pool slot") >= 1, after.toString());
        assertTrue(cluster.pooledRuns() > before, "no run in the warm slots");
    }
}
