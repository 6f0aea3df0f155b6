package org.jvmreuse.it.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.jvmreuse.it.Pool;

/**
 * A stock Hadoop 3.5.0 cluster (jvmreuse-cluster start --hadoop-version 3.5.0, one NodeManager)
 * from the jars hadoop3-patch assembles beside Hadoop 2.2's: its daemons are 3.5.0, wordcount
 * counts what the test counts itself, pi runs, and the JobHistoryServer has the job; an unknown
 * version is refused before anything starts. Pool mode on 3.5.0: Hadoop3PooledClusterTest.
 */
class Hadoop3StockClusterTest {
    /** The 3.x version the Hadoop3* tests run against: -Djvmreuse.hadoop3.version=3.4.2 picks 3.4's jars. */
    static final String VERSION = System.getProperty("jvmreuse.hadoop3.version", "3.5.0");
    /** Its jars, where job-scripts/lib/core/hadoop-version.sh takes them from. */
    private static final Path LIB = Pool.REPO.resolve((VERSION.equals("3.5.0") ? "hadoop3-patch" : "hadoop34-install") + "/target/hadoop/lib");
    private static HadoopCluster cluster;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = HadoopCluster.start(1, "--hadoop-version", VERSION);
    }

    @AfterAll
    static void stopCluster() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    /** Central has no 3.5.0 examples jar; hadoop3-patch takes the newest 3.x one (3.4.2's). */
    static Path examples() throws Exception {
        try (Stream<Path> jars = Files.list(LIB)) {
            return jars.filter(p -> p.getFileName().toString().matches("hadoop-mapreduce-examples-3\\..*\\.jar")).findFirst()
                    .orElseThrow(() -> new AssertionError("no Hadoop 3 examples jar in " + LIB));
        }
    }

    private static String port(String name) throws Exception {
        Matcher m = Pattern.compile("(?m)^PORT_" + name + "=(\\d+)$").matcher(Files.readString(cluster.dir.resolve("cluster.env")));
        assertTrue(m.find(), name + " in cluster.env");
        return m.group(1);
    }

    /** The ResourceManager's REST answer (JSON) at {@code path}, checked to be 200. */
    private static String resourceManager(String path) throws Exception {
        var response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port("rm_web") + path)).header("Accept", "application/json")
                .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        return response.body();
    }

    @Test
    void theDaemonsRunHadoop3() throws Exception {
        String info = resourceManager("/ws/v1/cluster/info");
        assertTrue(info.contains("\"hadoopVersion\":\"" + VERSION + "\""), info);
    }

    /**
     * 3.x's CapacityScheduler counts maximum-am-resource-percent in AM sizes (2.2's in minimum
     * allocations): the cluster's share lets in as many AMs as leave room for a task, as on 2.2.
     * With 2.2's share a 3.x cluster ran one AM at a time, so a job waited for the previous one's
     * AM to end (its 5 s after the job).
     */
    @Test
    void theQueueTakesAsManyAppMastersAsLeaveRoomForATask() throws Exception {
        String scheduler = resourceManager("/ws/v1/cluster/scheduler");
        long nm = Long.parseLong(cluster.property("yarn-site.xml", "yarn.nodemanager.resource.memory-mb"));
        long am = Long.parseLong(cluster.property("mapred-site.xml", "yarn.app.mapreduce.am.resource.mb"));
        long task = Long.parseLong(cluster.property("mapred-site.xml", "mapreduce.map.memory.mb"));
        for (String limit : List.of("AMResourceLimit", "userAMResourceLimit")) {
            Matcher m = Pattern.compile("\"" + limit + "\":\\{\"memory\":(\\d+)").matcher(scheduler);
            assertTrue(m.find(), limit + " in " + scheduler);
            assertEquals((nm - task) / am, Long.parseLong(m.group(1)) / am, limit + " " + m.group(1) + " MB, AMs of " + am + " MB");
        }
    }

    @Test
    void wordcountCountsWhatTheTestCountsAndTheHistoryServerHasIt() throws Exception {
        Path text = cluster.newDir("text");
        ExampleJobsTest.writeText(text, 2, 1000);
        Map<String, Long> expected = JobOutput.wordCounts(text);
        long lines = 0;
        try (Stream<Path> files = Files.list(text)) {
            for (Path f : files.toList()) {
                lines += Files.readAllLines(f).size();
            }
        }
        Path out = cluster.dir.resolve("data/wordcount");
        Job job = cluster.job(examples(), List.of("wordcount", text.toString(), out.toString()));
        assertTrue(job.succeeded(), "wordcount failed:\n" + job);

        assertEquals(expected, JobOutput.countedWords(JobOutput.reduceOutput(out)));

        Map<String, Long> history = cluster.historyCounters(job.lastJobId());
        assertEquals(lines, history.get("MAP_INPUT_RECORDS"), "the JobHistoryServer's counters: " + history);
        assertEquals((long) expected.size(), history.get("REDUCE_OUTPUT_RECORDS"), "the JobHistoryServer's counters: " + history);
    }

    @Test
    void piRuns() throws Exception {
        Job job = cluster.job(examples(), List.of("pi", "2", "100"));
        assertTrue(job.succeeded() && job.result().out().contains("Estimated value of Pi is 3."), "pi failed:\n" + job);
    }

    /** An unknown version is refused with a clear message. */
    @Test
    void unknownVersionsAreRefusedBeforeStart() throws Exception {
        Path scratch = Files.createTempDirectory(Path.of("/tmp"), "jrt-h3-refused-");
        try {
            var command = List.of(HadoopCluster.RUNNER.toString(), "start", "--dir", scratch.resolve("cluster").toString(),
                    "--hadoop-version", "3.1.0");
            Pool.Result r = Pool.exec(command, Map.of(), null, 60);
            assertTrue(r.code() != 0 && r.err().contains("must be one of: 2.2.0 3.4.2 3.5.0 (got '3.1.0')"), command + ": " + r);
            assertTrue(Files.notExists(scratch.resolve("cluster/pids")), command + " started something");
        } finally {
            try (var files = Files.walk(scratch)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }
}
