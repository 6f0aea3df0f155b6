package org.jvmreuse.it.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A task that fails in a slot (exception, System.exit(1), Runtime.halt, OutOfMemoryError) is
 * retried by YARN as usual and the job ends as it does on the stock path; so is an MRAppMaster
 * that fails its first attempt in a slot (exception, exit, halt): the NodeManager sees its exit
 * status and YARN starts the second attempt. The slots stay healthy and serve the next job. A
 * task that needs more heap than a slot has runs in its own JVM. The job's output does not
 * depend on how its attempt fails, so one stock run (its attempt failing with an exception) is
 * the reference of every mode's pooled run.
 */
class TaskFailureTest {
    private static HadoopCluster cluster;
    private static Path jar;
    private static Path input;
    /** The output of each kind's stock run, by its output dir's name: made once, by the first mode. */
    private static final Map<String, String> STOCK_OUTPUTS = new HashMap<>();

    @BeforeAll
    static void startCluster() throws Exception {
        // three slots: the job's AM holds one (the default AM cap of three slots is two)
        cluster = HadoopCluster.start(1, "--pool", "--slots", "3");
        jar = JobJars.withMarker(cluster.dir, "flaky");
        input = JobJars.lines(cluster.dir.resolve("data"), "flaky-in", 2);
    }

    @AfterAll
    static void stopCluster() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    private Job run(String mode, boolean always, boolean stock, String out) throws Exception {
        List<String> args = new ArrayList<>(JobJars.main("FlakyJob"));
        args.addAll(List.of("-Dflaky.mode=" + mode, "-Dflaky.always=" + always, "-Dmapreduce.map.maxattempts=2"));
        if (stock) {
            args.addAll(HadoopCluster.STOCK);
        }
        args.addAll(List.of(input.toString(), cluster.dir.resolve("data/" + out).toString()));
        return cluster.job(jar, args);
    }

    private static String output(Path dir) throws Exception {
        StringBuilder all = new StringBuilder();
        try (Stream<Path> parts = Files.list(dir)) {
            for (Path part : parts.filter(p -> p.getFileName().toString().startsWith("part-")).sorted().toList()) {
                all.append(Files.readString(part));
            }
        }
        return all.toString();
    }

    @ParameterizedTest
    @ValueSource(strings = {"exception", "exit", "halt", "oom"})
    void aFailedFirstAttemptIsRetriedAndTheJobSucceedsAsOnTheStockPath(String mode) throws Exception {
        long before = cluster.pooledRuns();
        Job pooled = run(mode, false, false, mode + "-pool");
        assertTrue(pooled.succeeded(), mode + ": pooled job failed:\n" + pooled);
        cluster.awaitIdlePools();
        assertEquals(4, cluster.pooledRuns() - before, "the AM, two tasks and one retry ran in the pool");
        assertEquals(1L, pooled.counters().get("Job Counters/Failed map tasks"), "one failed attempt: " + pooled.counters());
        assertEquals(stockOutput("retried-stock", () -> run("exception", false, true, "retried-stock")),
                output(cluster.dir.resolve("data/" + mode + "-pool")));
        assertHealthySlots();
    }

    @ParameterizedTest
    @ValueSource(strings = {"exception", "exit"})
    void aTaskThatAlwaysFailsFailsTheJobAsOnTheStockPath(String mode) throws Exception {
        Job pooled = run(mode, true, false, mode + "-always-pool");
        if (mode.equals("exception")) {
            Job stock = run(mode, true, true, mode + "-always-stock");
            assertFalse(stock.succeeded(), "the stock job should fail:\n" + stock);
        }
        assertFalse(pooled.succeeded(), "the pooled job should fail:\n" + pooled);
        assertTrue(pooled.result().err().contains("Task failed task_"), pooled.toString());
        assertHealthySlots();
    }

    @ParameterizedTest
    @ValueSource(strings = {"exception", "exit", "halt"})
    void anAppMasterThatFailsItsFirstAttemptIsRetriedAsOnTheStockPath(String mode) throws Exception {
        Job pooled = runAmFailure(mode, false, mode + "-am-pool");
        assertTrue(pooled.succeeded(), mode + ": pooled job failed:\n" + pooled);
        String app = "container_" + pooled.lastJobId().substring("job_".length());
        String nmLog = Files.readString(cluster.dir.resolve("logs/nodemanager1.log"));
        assertTrue(nmLog.contains(app + "_01_000001: application master handed to the JVM pool"),
                "the first AM attempt did not run in a slot");
        int exit = mode.equals("halt") ? 7 : 1;
        assertTrue(nmLog.contains("Exit code from container " + app + "_01_000001 is : " + exit),
                "the NodeManager did not see the first AM attempt end with " + exit);
        assertTrue(nmLog.contains(app + "_02_000001: application master handed to the JVM pool"),
                "the second AM attempt did not run in a slot");
        assertEquals(stockOutput("am-stock", () -> runAmFailure("exception", true, "am-stock")),
                output(cluster.dir.resolve("data/" + mode + "-am-pool")));
        assertHealthySlots();
    }

    /** The output of the stock job {@code run} writes into data/{@code out}, run the first time it is asked for. */
    private static String stockOutput(String out, Callable<Job> run) throws Exception {
        if (!STOCK_OUTPUTS.containsKey(out)) {
            Job stock = run.call();
            assertTrue(stock.succeeded(), "stock job failed:\n" + stock);
            STOCK_OUTPUTS.put(out, output(cluster.dir.resolve("data/" + out)));
        }
        return STOCK_OUTPUTS.get(out);
    }

    private Job runAmFailure(String mode, boolean stock, String out) throws Exception {
        List<String> args = new ArrayList<>(JobJars.main("FlakyJob"));
        args.addAll(List.of("-Dflaky.am=true", "-Dflaky.mode=" + mode));
        if (stock) {
            args.addAll(HadoopCluster.STOCK);
        }
        args.addAll(List.of(input.toString(), cluster.dir.resolve("data/" + out).toString()));
        return cluster.job(jar, args);
    }

    /**
     * The slots have a heap of 512m (the cluster's default); a task with -Xmx900m that fills
     * 560 MB of it would run out of memory in a slot. It takes the stock path and succeeds, and
     * the NodeManager log says why.
     */
    @Test
    void aTaskWithAHeapAboveTheSlotHeapRunsInItsOwnJvm() throws Exception {
        long before = cluster.pooledRuns();
        List<String> args = new ArrayList<>(JobJars.main("FlakyJob"));
        args.addAll(List.of("-Dflaky.mode=none", "-Dflaky.hold-mb=560", "-Dmapreduce.map.java.opts=-Xmx900m",
                "-Dmapreduce.task.io.sort.mb=10", "-Dmapreduce.map.memory.mb=1024", "-Dmapreduce.map.maxattempts=1", input.toString(),
                cluster.dir.resolve("data/big-heap").toString()));
        Job job = cluster.job(jar, args);
        assertTrue(job.succeeded(), "the task with the larger heap failed:\n" + job);
        assertEquals(2, output(cluster.dir.resolve("data/big-heap")).split("held 560 MB", -1).length - 1);
        cluster.awaitIdlePools();
        assertEquals(1, cluster.pooledRuns() - before, "its maps ran in slots (only its AM may)");
        String nmLog = Files.readString(cluster.dir.resolve("logs/nodemanager1.log"));
        assertTrue(nmLog.contains("stock launch (its heap -Xmx900m is above the slot heap of 512 MB)"), "no reason logged");
        assertHealthySlots();
    }

    private static void assertHealthySlots() throws Exception {
        cluster.awaitIdlePools();
        String status = cluster.poolStatus(1);
        assertTrue(status.contains("slots: 3 (free 3, busy 0, starting 0, retired 0)"), "slots after the job:\n" + status);
    }
}
