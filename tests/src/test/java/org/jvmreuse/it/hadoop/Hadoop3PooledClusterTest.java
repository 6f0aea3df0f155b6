package org.jvmreuse.it.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A Hadoop 3.5.0 cluster in pool mode (jvmreuse-cluster start --pool --hadoop-version 3.5.0, one
 * NodeManager and its pool under mpirun): hadoop3-patch's executor hands every task to the pool,
 * the tasks run in slots (the pool counts each as a completed run, none fell back to a new JVM,
 * no slot retired, so hadoop-patch's per-task reset ran cleanly on 3.5.0 after each; the task
 * launch counters say so too), and their jobs give what a stock run or the test's own count
 * gives, again when a second job runs in the same slots. What stays stock on 3.x is said: the start names it, and each MRAppMaster's
 * container has its reason in the NodeManager log.
 */
class Hadoop3PooledClusterTest {
    private static final Pattern FALLBACKS = Pattern.compile("fallbacks (\\d+)");
    private static final Pattern RETIRED = Pattern.compile("retired (\\d+)\\)");
    private static final String HADOOP3_AM = "application masters are not pooled on Hadoop 3.x yet";
    private static HadoopCluster cluster;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = HadoopCluster.start(1, "--pool", "--hadoop-version", Hadoop3StockClusterTest.VERSION);
    }

    @AfterAll
    static void stopCluster() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void theStartSaysWhatStaysStockOnHadoop3() {
        String said = cluster.startOutput().err();
        assertTrue(said.contains("Hadoop " + Hadoop3StockClusterTest.VERSION + " with pools: ")
                && said.contains("its application masters take the stock path") && !said.contains("MPI shuffle off"), said);
    }

    @Test
    void piInSlotsEstimatesWhatStockDoesTwiceInTheSameSlots() throws Exception {
        Job stock = pi(HadoopCluster.STOCK);
        String estimate = estimate(stock);
        assertEquals(0, tasksPooled(stock, "the job set JVMREUSE_POOL=off"), "the stock job's tasks went to the pool");
        assertLaunchCounters(stock, 0, 3);
        for (int round = 1; round <= 2; round++) {
            long runs = cluster.pooledRuns();
            Job pooled = pi(HadoopCluster.POOLED);
            assertEquals(estimate, estimate(pooled), "round " + round);
            assertEquals(3, tasksPooled(pooled, HADOOP3_AM), "round " + round + ": 2 maps and a reduce handed to the pool");
            assertLaunchCounters(pooled, 3, 0);
            assertEquals(runs + 3, cluster.pooledRuns(), "round " + round + ": each ran in a slot");
            assertSlotsServeOn();
        }
    }

    @Test
    void wordcountInSlotsCountsWhatTheTestCountsTwiceInTheSameSlots() throws Exception {
        Path text = cluster.newDir("wordcount-in");
        ExampleJobsTest.writeText(text, 2, 1000);
        Map<String, Long> expected = JobOutput.wordCounts(text);
        for (int round = 1; round <= 2; round++) {
            long runs = cluster.pooledRuns();
            Path out = cluster.dir.resolve("data/wordcount-out" + round);
            Job job = cluster.job(Hadoop3StockClusterTest.examples(), List.of("wordcount", text.toString(), out.toString()));
            assertTrue(job.succeeded(), "wordcount failed:\n" + job);
            assertEquals(expected, JobOutput.countedWords(JobOutput.reduceOutput(out)), "round " + round);
            assertEquals(3, tasksPooled(job, HADOOP3_AM), "round " + round + ": 2 maps and a reduce handed to the pool");
            assertLaunchCounters(job, 3, 0);
            assertEquals(runs + 3, cluster.pooledRuns(), "round " + round + ": each ran in a slot");
            assertSlotsServeOn();
        }
    }

    private static Job pi(List<String> options) throws Exception {
        List<String> args = new ArrayList<>(List.of("pi"));
        args.addAll(options);
        args.addAll(List.of("2", "100"));
        Job job = cluster.job(Hadoop3StockClusterTest.examples(), args);
        assertTrue(job.succeeded(), "pi failed:\n" + job);
        return job;
    }

    private static String estimate(Job pi) {
        Matcher m = Pattern.compile("Estimated value of Pi is (3\\.\\d+)").matcher(pi.result().out());
        assertTrue(m.find(), "no estimate:\n" + pi);
        return m.group(1);
    }

    /**
     * The job's task containers the NodeManager handed to the pool; its MRAppMaster's container
     * took the stock path for {@code amReason}, as the NodeManager log says.
     */
    private static long tasksPooled(Job job, String amReason) throws Exception {
        cluster.awaitIdlePools();
        String app = "container_" + job.lastJobId().substring("job_".length()) + "_";
        List<String> lines = Files.readAllLines(cluster.dir.resolve("logs/nodemanager1.log")).stream()
                .filter(l -> l.contains("Container " + app) && (l.contains(": task handed to the JVM pool")
                        || l.contains(": application master handed") || l.contains(": stock launch (")))
                .toList();
        assertTrue(lines.stream().anyMatch(l -> l.contains("01_000001: stock launch (" + amReason)),
                "the MRAppMaster's container has not its stock reason:\n" + String.join("\n", lines));
        return lines.stream().filter(l -> l.contains(": task handed to the JVM pool")).count();
    }

    /** The job's task launch counters (3.x's umbilical engine, hadoop3-patch) as the client lists them. */
    private static void assertLaunchCounters(Job job, long pooled, long stock) {
        Map<String, Long> counters = job.counters();
        assertEquals(pooled, counters.get("Task launches/Tasks run in a pool slot"), counters.toString());
        assertEquals(stock, counters.get("Task launches/Tasks run in a new JVM"), counters.toString());
    }

    /** No run fell back to a new JVM and no slot retired (a failed reset retires its slot). */
    private static void assertSlotsServeOn() throws Exception {
        String status = cluster.poolStatus(1);
        Matcher fallbacks = FALLBACKS.matcher(status);
        Matcher retired = RETIRED.matcher(status);
        assertTrue(fallbacks.find() && fallbacks.group(1).equals("0"), status);
        assertTrue(retired.find() && retired.group(1).equals("0"), status);
    }
}
