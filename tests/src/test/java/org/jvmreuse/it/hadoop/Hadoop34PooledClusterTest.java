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

/**
 * The Hadoop 3.4 line beside 3.5 (jvmreuse-cluster start --pool --hadoop-version 3.4.2, one
 * NodeManager and its pool; the jars hadoop34-install assembles, the executor and launch counters'
 * engine hadoop3-patch's, the MPI shuffle mpi-shuffle3's): the daemons are 3.4.2, and a wordcount's
 * tasks run in slots, its reducer takes the map outputs over the MPI shuffle, and it counts what
 * the test counts. 3.4's MapReduce containers carry --add-opens/--add-exports options by
 * default (mapreduce.jvm.add-opens-as-default is true there, false on 3.5), which the slots were
 * not started with: each run takes them, so its tasks are pooled, not sent stock. Its application
 * masters stay stock (the AM's statics are audited on 3.5.0 only), with the reason in the log.
 */
class Hadoop34PooledClusterTest {
    private static final String VERSION = "3.4.2";
    private static final Path LIB = org.jvmreuse.it.Pool.REPO.resolve("hadoop34-install/target/hadoop/lib");
    private static HadoopCluster cluster;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = HadoopCluster.start(1, "--pool", "--hadoop-version", VERSION);
    }

    @AfterAll
    static void stopCluster() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void wordcountOnHadoop34RunsItsTasksInSlotsWithTheirJdkOptionsAndShufflesOverMpi() throws Exception {
        Matcher rmWeb = Pattern.compile("(?m)^PORT_rm_web=(\\d+)$").matcher(Files.readString(cluster.dir.resolve("cluster.env")));
        assertTrue(rmWeb.find(), "rm_web in cluster.env");
        var info = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + rmWeb.group(1) + "/ws/v1/cluster/info")).header("Accept", "application/json")
                .build(), HttpResponse.BodyHandlers.ofString());
        assertTrue(info.body().contains("\"hadoopVersion\":\"" + VERSION + "\""), info.body());

        Path text = cluster.newDir("wordcount-in");
        ExampleJobsTest.writeText(text, 2, 1000);
        Map<String, Long> expected = JobOutput.wordCounts(text);
        long runs = cluster.pooledRuns();
        Path out = cluster.dir.resolve("data/wordcount-out");
        Job job = cluster.job(LIB.resolve("hadoop-mapreduce-examples-" + VERSION + ".jar"),
                List.of("wordcount", MpiShuffleTest.PLUGIN, text.toString(), out.toString()));
        assertTrue(job.succeeded(), "wordcount failed:\n" + job);
        assertEquals(expected, JobOutput.countedWords(JobOutput.reduceOutput(out)));

        Map<String, Long> counters = job.counters();
        assertEquals(3L, counters.get("Task launches/Tasks run in a pool slot"), counters.toString());
        assertEquals(0L, counters.get("Task launches/Tasks run in a new JVM"), counters.toString());
        assertEquals(2L, counters.get(MpiShuffleTest.COUNTERS + "MPI_MAPS"), "both map outputs over MPI: " + counters);
        assertEquals(0L, counters.get(MpiShuffleTest.COUNTERS + "HTTP_MAPS"), counters.toString());
        cluster.awaitIdlePools();
        assertEquals(runs + 3, cluster.pooledRuns(), "2 maps and a reduce, each in a slot");
        // 3.4.2's application masters stay stock (their statics are audited on 3.5.0 only), said per container.
        String am = "container_" + job.lastJobId().substring("job_".length()) + "_01_000001: stock launch (application masters are not pooled";
        assertTrue(Files.readString(cluster.dir.resolve("logs/nodemanager1.log")).contains(am), "the AM's stock launch and its reason");

        // The tasks' launch scripts (as the NodeManager wrote them) asked for 3.4's JDK options.
        String app = "container_" + job.lastJobId().substring("job_".length()) + "_01_00000";
        try (Stream<Path> scripts = Files.find(cluster.dir, 8, (p, a) -> p.getFileName().toString().equals("launch_container.sh")
                && p.getParent().getFileName().toString().startsWith(app) && !p.getParent().getFileName().toString().endsWith("_000001"))) {
            List<Path> tasks = scripts.toList();
            assertEquals(3, tasks.size(), "the tasks' launch scripts: " + tasks);
            for (Path script : tasks) {
                assertTrue(Files.readString(script).contains("--add-exports=java.base/sun.net.util=ALL-UNNAMED"), script.toString());
            }
        }
    }
}
