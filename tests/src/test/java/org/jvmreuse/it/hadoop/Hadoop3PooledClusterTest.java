package org.jvmreuse.it.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.jvmreuse.it.Pool.Result;

/**
 * A Hadoop 3.5.0 cluster in pool mode with HDFS (jvmreuse-cluster start --pool --hdfs
 * --hadoop-version 3.5.0, one NodeManager and its pool under mpirun; HDFS is the default file
 * system, so every AM uses HDFS clients (its job's staging is there), and so do pi's tasks (their
 * input); the other example jobs read and write the local file system by file:// paths, wordcount
 * also HDFS): hadoop3-patch's executor hands every task and every MRAppMaster to the pool, they
 * run in slots (the pool counts each as a completed run, the AMs among them; none fell back to a
 * new JVM, no slot retired, so hadoop-patch's per-run reset, AppMasterStatics and the HDFS client
 * contexts included, ran cleanly on 3.5.0 after each; the task launch counters say so too), and
 * the example jobs (pi, also as an uber job inside its pooled AM, wordcount, grep,
 * terasort, sort) give the output and deterministic counters of the same job run stock on the
 * same cluster (the job opting out), jobs after jobs in the same slots, slots warmed up with
 * hadoop-patch's TaskWarmup as on 2.2.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class Hadoop3PooledClusterTest {
    private static final Pattern FALLBACKS = Pattern.compile("fallbacks (\\d+)");
    private static final Pattern RETIRED = Pattern.compile("retired (\\d+)\\)");
    private static final Pattern SLOT_RUNS = Pattern.compile("(?m)^slot \\d+: rank \\d+ pid (\\d+) \\S+ busy=\\d+ runs=(\\d+) ");
    private static final String AM_POOLED = "01_000001: application master handed to the JVM pool";
    private static HadoopCluster cluster;
    private static Path text;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = HadoopCluster.start(1, "--pool", "--hdfs", "--hadoop-version", Hadoop3StockClusterTest.VERSION);
        text = cluster.newDir("text");
        ExampleJobsTest.writeText(text, 2, 1000);
    }

    @AfterAll
    static void stopCluster() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    /** Nothing stays stock on 3.5.0: the start names no part, and its slots warm up with TaskWarmup. */
    @Test
    void theStartSaysTheSlotsWarmUpAndNothingStaysStock() {
        String said = cluster.startOutput().err();
        assertTrue(!said.contains(" with pools: ") && said.contains("MPI shuffle on, slots warmed up with "
                + "org.jvmreuse.hadoop.warmup.TaskWarmup"), said);
    }

    /**
     * pi pooled twice (the second job's AM and tasks in slots that ran the first's) and as an
     * uber job (its tasks inside its AM, in a slot) estimates what a stock run estimates (its
     * counters are not compared: its input's directory name has a random number of digits). First
     * (so that the jobs after it show a leak), a pooled AM whose maps ask for more memory than a
     * slot has: they go stock, and the size its AM kept (3.x's TaskAttemptImpl.RESOURCE_REQUEST_CACHE)
     * must not reach the next AM in its slot, whose maps would go stock too (every later pooled
     * job here asserts that none does).
     */
    @Test
    @Order(1)
    void piInSlotsEstimatesWhatStockDoesTwiceInTheSameSlotsAndUber() throws Exception {
        List<String> bigMaps = new ArrayList<>(HadoopCluster.POOLED);
        bigMaps.add("-Dmapreduce.map.memory.mb=1024");
        Job big = pi(bigMaps);
        cluster.awaitIdlePools();
        List<String> lines = launches(big.lastJobId());
        // 3.x gives a map of 1024 MB a heap of 820 MB (mapreduce.job.heap.memory-mb.ratio), above the slot's
        assertEquals(2, lines.stream().filter(l -> l.contains("stock launch (its heap -Xmx820m is above the slot heap")).count(),
                String.join("\n", lines));
        assertTrue(lines.stream().anyMatch(l -> l.contains(AM_POOLED)), String.join("\n", lines));
        assertEquals(1024, mapContainerMb(big), big.counters().toString());
        Job stock = stock("pi", () -> pi(HadoopCluster.STOCK));
        String estimate = estimate(stock);
        assertLaunchCounters(stock, 0, 3);
        for (int round = 1; round <= 2; round++) {
            Job pooled = pooled("pi round " + round, () -> pi(HadoopCluster.POOLED), 3);
            assertEquals(estimate, estimate(pooled), "round " + round);
            assertLaunchCounters(pooled, 3, 0);
            assertEquals(512, mapContainerMb(pooled), "round " + round + ": the size of its maps' containers");
        }
        List<String> uber = new ArrayList<>(HadoopCluster.POOLED);
        uber.add("-Dmapreduce.job.ubertask.enable=true");
        Job inAm = pooled("uber pi", () -> pi(uber), 0);
        assertEquals(estimate, estimate(inAm), "uber");
        assertTrue(inAm.toString().contains(inAm.lastJobId() + " running in uber mode : true"), "not uber:\n" + inAm);
    }

    @Test
    void wordcountAndGrepInSlotsWriteWhatStockWrites() throws Exception {
        Job[] wc = both("wordcount", List.of(), local(text.toString()), local(out("wordcount", "@OUT@")));
        assertEquals(JobOutput.wordCounts(text), JobOutput.countedWords(JobOutput.reduceOutput(Path.of(out("wordcount",
                "slots")))));
        assertSameOutput("wordcount");
        assertSameCounters("wordcount", wc);
        both("grep", List.of(), local(text.toString()), local(out("grep", "@OUT@")), "[a-f]+ab");
        assertSameOutput("grep");
    }

    /**
     * wordcount from and to HDFS twice, its AM and tasks in slots: each run leaves HDFS client
     * contexts (3.x's ClientContext caches: sockets to the DataNode, their daemon), which the
     * per-run reset closes and forgets, so no slot retires and the second job's runs take slots
     * that ran the first's (the pool gives a run the free slot that last ran its class path).
     */
    @Test
    void wordcountFromAndToHdfsTwiceInTheSameSlots() throws Exception {
        Result put = cluster.hadoop(List.of("fs", "-put", text.toString(), "/text"), 120);
        assertEquals(0, put.code(), "fs -put: " + put);
        Map<String, Long> expected = JobOutput.wordCounts(text);
        List<Set<Long>> slotsUsed = new ArrayList<>();
        for (String out : List.of("/counted-1", "/counted-2")) {
            cluster.awaitIdlePools();
            Map<Long, Long> before = slotRuns();
            Job job = pooled("wordcount into HDFS " + out, () -> {
                List<String> args = new ArrayList<>(List.of("wordcount"));
                args.addAll(HadoopCluster.POOLED);
                args.addAll(List.of("/text", out));
                Job wc = cluster.job(Hadoop3StockClusterTest.examples(), args);
                assertTrue(wc.succeeded(), "wordcount into " + out + " failed:\n" + wc);
                return wc;
            }, 3);
            assertLaunchCounters(job, 3, 0);
            assertTrue(job.counters().getOrDefault("File System Counters/HDFS: Number of bytes read", 0L) > 0,
                    "the input did not come from HDFS: " + job.counters());
            Result cat = cluster.hadoop(List.of("fs", "-cat", out + "/part-r-*"), 120);
            assertEquals(0, cat.code(), "fs -cat: " + cat);
            assertEquals(expected, JobOutput.countedWords(cat.out().lines().toList()), "the words of " + out);
            Map<Long, Long> after = slotRuns();
            assertEquals(before.keySet(), after.keySet(), "the slots (by pid) changed");
            slotsUsed.add(after.keySet().stream().filter(pid -> after.get(pid) > before.get(pid)).collect(Collectors.toSet()));
        }
        assertFalse(Collections.disjoint(slotsUsed.get(0), slotsUsed.get(1)), "no slot ran both jobs: " + slotsUsed);
    }

    /** The runs each slot (by its JVM's pid) has completed, from the pool's status. */
    private static Map<Long, Long> slotRuns() throws Exception {
        Map<Long, Long> runs = new TreeMap<>();
        Matcher slot = SLOT_RUNS.matcher(cluster.poolStatus(1));
        while (slot.find()) {
            runs.put(Long.parseLong(slot.group(1)), Long.parseLong(slot.group(2)));
        }
        return runs;
    }

    /** terasort of one teragen input, and sort (text in, text out) of the test's text. */
    @Test
    void terasortAndSortInSlotsWriteWhatStockWrites() throws Exception {
        Job gen = cluster.job(Hadoop3StockClusterTest.examples(), List.of("teragen", "-Dmapreduce.job.maps=2", "20000",
                local(out("teragen", "input"))));
        assertTrue(gen.succeeded(), "teragen failed:\n" + gen);
        Job[] sort = both("terasort", List.of("-Dmapreduce.job.reduces=2", "-Dmapreduce.terasort.simplepartitioner=true"),
                local(out("teragen", "input")), local(out("terasort", "@OUT@")));
        assertSameOutput("terasort");
        assertSameCounters("terasort", sort);
        Job[] lines = both("sort", List.of(), "-r", "2", "-inFormat",
                "org.apache.hadoop.mapreduce.lib.input.KeyValueTextInputFormat", "-outFormat",
                "org.apache.hadoop.mapreduce.lib.output.TextOutputFormat", "-outKey", "org.apache.hadoop.io.Text",
                "-outValue", "org.apache.hadoop.io.Text", local(text.toString()), local(out("sort", "@OUT@")));
        assertSameOutput("sort");
        assertSameCounters("sort", lines);
    }

    private static String out(String job, String side) {
        return cluster.dir.resolve("data").resolve(job + "-" + side).toString();
    }

    /** A path of the local file system for a job's arguments (the cluster's default is its HDFS). */
    private static String local(String path) {
        return "file://" + path;
    }

    /**
     * Runs the example pooled, then stock, into NAME-slots and NAME-stock (the same length: equal
     * job.xml sizes); every job of the pooled client has its AM and tasks in slots.
     */
    private static Job[] both(String name, List<String> options, String... argsWithOut) throws Exception {
        Job[] jobs = new Job[2];
        for (int side = 0; side < 2; side++) {
            boolean pooled = side == 0;
            List<String> args = new ArrayList<>(List.of(name));
            args.addAll(options);
            args.addAll(pooled ? HadoopCluster.POOLED : HadoopCluster.STOCK);
            for (String a : argsWithOut) {
                args.add(a.replace("@OUT@", pooled ? "slots" : "stock"));
            }
            Callable<Job> run = () -> {
                Job job = cluster.job(Hadoop3StockClusterTest.examples(), args);
                assertTrue(job.succeeded(), name + (pooled ? " (pool)" : " (stock)") + " failed:\n" + job);
                return job;
            };
            jobs[side] = pooled ? pooled(name, run, -1) : stock(name, run);
        }
        return jobs;
    }

    /**
     * Runs a client whose jobs must run pooled: each job's AM and its tasks ({@code tasks} of
     * them if not -1) handed to the pool and run in slots, nothing stock, no fallback, no slot retired.
     */
    private static Job pooled(String what, Callable<Job> client, long tasks) throws Exception {
        cluster.awaitIdlePools(); // the previous job's AM ends a few seconds after its client
        long runs = cluster.pooledRuns();
        long ams = cluster.pooledAmRuns();
        Job job = client.call();
        cluster.awaitIdlePools();
        long handed = 0;
        for (String id : job.jobIds()) {
            List<String> lines = launches(id);
            assertTrue(lines.stream().anyMatch(l -> l.contains(AM_POOLED)) && lines.stream().noneMatch(l -> l.contains("stock launch")),
                    what + ": " + id + " not all in the pool:\n" + String.join("\n", lines));
            handed += lines.stream().filter(l -> l.contains(": task handed to the JVM pool")).count();
        }
        int jobs = job.jobIds().size();
        assertTrue(tasks == -1 || handed == tasks, what + ": " + handed + " tasks handed to the pool, not " + tasks);
        assertEquals(ams + jobs, cluster.pooledAmRuns(), what + ": each MRAppMaster ran in a slot");
        assertEquals(runs + jobs + handed, cluster.pooledRuns(), what + ": each AM and task ran in a slot");
        assertSlotsServeOn(what);
        return job;
    }

    /** Runs a client whose jobs opted out: nothing of theirs reaches the pool. */
    private static Job stock(String what, Callable<Job> client) throws Exception {
        cluster.awaitIdlePools();
        long runs = cluster.pooledRuns();
        Job job = client.call();
        cluster.awaitIdlePools();
        assertEquals(runs, cluster.pooledRuns(), what + " (stock): the pool ran some of it");
        for (String id : job.jobIds()) {
            List<String> lines = launches(id);
            assertTrue(!lines.isEmpty() && lines.stream().allMatch(l -> l.contains(": stock launch (the job set JVMREUSE_POOL=off)")),
                    what + " (stock): " + id + ":\n" + String.join("\n", lines));
        }
        return job;
    }

    /** The NodeManager's pool-or-stock line of each container of job {@code jobId}. */
    private static List<String> launches(String jobId) throws Exception {
        String app = "container_" + jobId.substring("job_".length()) + "_";
        return Files.readAllLines(cluster.dir.resolve("logs/nodemanager1.log")).stream()
                .filter(l -> l.contains("Container " + app) && (l.contains(" handed to the JVM pool") || l.contains(": stock launch (")))
                .toList();
    }

    private static void assertSameOutput(String job) throws Exception {
        assertEquals(JobOutput.digests(Path.of(out(job, "stock"))), JobOutput.digests(Path.of(out(job, "slots"))),
                job + ": output differs between stock and pool");
    }

    private static void assertSameCounters(String name, Job[] jobs) {
        Map<String, Long> pool = ExampleJobsTest.deterministic(jobs[0].counters());
        assertTrue(pool.keySet().stream().anyMatch(k -> k.contains("records")), name + ": counters " + pool);
        assertEquals(ExampleJobsTest.deterministic(jobs[1].counters()), pool, name + ": counters differ between stock and pool");
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

    /** The memory of the job's map containers, as its AM asked for them: MB-milliseconds over milliseconds. */
    private static long mapContainerMb(Job job) {
        Map<String, Long> counters = job.counters();
        return counters.get("Job Counters/Total megabyte-milliseconds taken by all map tasks")
                / counters.get("Job Counters/Total time spent by all map tasks (ms)");
    }

    /** The job's task launch counters (3.x's umbilical engine, hadoop3-patch) as the client lists them. */
    private static void assertLaunchCounters(Job job, long pooled, long stock) {
        Map<String, Long> counters = job.counters();
        assertEquals(pooled, counters.get("Task launches/Tasks run in a pool slot"), counters.toString());
        assertEquals(stock, counters.get("Task launches/Tasks run in a new JVM"), counters.toString());
    }

    /**
     * No run fell back to a new JVM and no slot retired (a failed reset retires its slot); if one
     * did, the pool's log says why.
     */
    private static void assertSlotsServeOn(String what) throws Exception {
        String status = cluster.poolStatus(1);
        Matcher fallbacks = FALLBACKS.matcher(status);
        Matcher retired = RETIRED.matcher(status);
        boolean clean = fallbacks.find() && fallbacks.group(1).equals("0") && retired.find() && retired.group(1).equals("0");
        if (!clean) {
            List<String> why;
            try (var logs = Files.list(cluster.dir.resolve("pool1/logs"))) {
                why = logs.flatMap(log -> {
                    try {
                        return Files.readAllLines(log).stream().filter(l -> l.contains("goes to a new JVM") || l.contains("retire"));
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                }).toList();
            }
            throw new AssertionError(what + ": " + status + "\n" + String.join("\n", why));
        }
    }
}
