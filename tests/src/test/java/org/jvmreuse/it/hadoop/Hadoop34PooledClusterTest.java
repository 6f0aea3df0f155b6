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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Hadoop 3.4 line beside 3.5 (jvmreuse-cluster start --pool --hadoop-version 3.4.2, one
 * NodeManager and its pool; the jars hadoop34-install assembles, the executor and launch counters'
 * engine hadoop3-patch's, the MPI shuffle mpi-shuffle3's): the daemons are 3.4.2, and a wordcount
 * with Hadoop's defaults has its MRAppMaster and tasks in slots (none falls back to a new JVM, no
 * slot retires: the per-run reset, AppMasterStatics included, ran cleanly on 3.4.2 after each), its
 * reducer takes the map outputs over the MPI shuffle, and it counts what the test counts. 3.4's
 * default mapreduce.jvm.add-opens-as-default=true gives every AM and task --add-opens java.lang,
 * which a slot gives for the run and takes back, and two --add-exports, which it could not take
 * back: the pools start with those exports, and a job that sets the flag false (a run a new JVM
 * would not give them) goes to new JVMs, saying why in the NodeManager's log, with the same output.
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
    void wordcountOnHadoop34WithItsDefaultsRunsInSlotsThatServeOnAndWithoutItsExportsInNewJvms() throws Exception {
        Matcher rmWeb = Pattern.compile("(?m)^PORT_rm_web=(\\d+)$").matcher(Files.readString(cluster.dir.resolve("cluster.env")));
        assertTrue(rmWeb.find(), "rm_web in cluster.env");
        var info = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + rmWeb.group(1) + "/ws/v1/cluster/info")).header("Accept", "application/json")
                .build(), HttpResponse.BodyHandlers.ofString());
        assertTrue(info.body().contains("\"hadoopVersion\":\"" + VERSION + "\""), info.body());

        String said = cluster.startOutput().err();
        assertTrue(!said.contains(" with pools: ") && said.contains("slots warmed up with org.jvmreuse.hadoop.warmup.TaskWarmup"),
                "something stays stock on 3.4.2: " + said);
        assertTrue(said.contains("the slots start with -Djava.net.preferIPv4Stack=true, which Hadoop gives every MapReduce task"
                + " and this cluster its application masters, and with --add-exports=java.base/sun.net.dns=ALL-UNNAMED"
                + " --add-exports=java.base/sun.net.util=ALL-UNNAMED, which Hadoop 3.4.2 gives every MapReduce container"), said);

        Path text = cluster.newDir("wordcount-in");
        ExampleJobsTest.writeText(text, 2, 1000);
        Map<String, Long> expected = JobOutput.wordCounts(text);
        long runs = cluster.pooledRuns();
        long ams = cluster.pooledAmRuns();
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
        cluster.awaitIdlePools(); // the AM ends a few seconds after its client
        assertEquals(ams + 1, cluster.pooledAmRuns(), "the MRAppMaster in a slot");
        assertEquals(runs + 4, cluster.pooledRuns(), "the AM, 2 maps and a reduce, each in a slot");
        String status = cluster.poolStatus(1);
        assertTrue(status.contains(", retired 0)") && status.contains(", fallbacks 0"),
                "a run fell back to a new JVM or a slot retired:\n" + status);
        String am = "container_" + job.lastJobId().substring("job_".length()) + "_01_000001: ";
        String log = Files.readString(cluster.dir.resolve("logs/nodemanager1.log"));
        assertTrue(log.contains(am + "application master handed to the JVM pool") && !log.contains(am + "stock launch"),
                "the AM's container is not in the NodeManager's log as handed to the pool");

        // The same job without the flag's options: new JVMs, each saying why, the same words.
        Path stockOut = cluster.dir.resolve("data/wordcount-flag-off");
        Job off = cluster.job(LIB.resolve("hadoop-mapreduce-examples-" + VERSION + ".jar"),
                List.of("wordcount", MpiShuffleTest.PLUGIN, "-Dmapreduce.jvm.add-opens-as-default=false", text.toString(),
                        stockOut.toString()));
        assertTrue(off.succeeded(), "wordcount with the flag false failed:\n" + off);
        assertEquals(expected, JobOutput.countedWords(JobOutput.reduceOutput(stockOut)));
        assertEquals(3L, off.counters().get("Task launches/Tasks run in a new JVM"), off.counters().toString());
        String app = "container_" + off.lastJobId().substring("job_".length()) + "_";
        List<String> refused = List.of();
        // Logged when a container ends: the AM's a few seconds after its client.
        for (long deadline = System.currentTimeMillis() + 60_000; refused.size() < 4 && System.currentTimeMillis() < deadline;
                Thread.sleep(500)) {
            refused = Files.readAllLines(cluster.dir.resolve("logs/nodemanager1.log")).stream()
                    .filter(l -> l.contains(app) && l.contains(": went to a new JVM (")).toList();
        }
        assertEquals(4, refused.size(), "the AM and 3 tasks went to new JVMs, each saying why: " + refused);
        assertTrue(refused.stream().allMatch(l -> l.contains("went to a new JVM (the pool's JVMs were started with --add-exports"
                + " java.base/sun.net.dns=ALL-UNNAMED, which the run does not ask for")), String.join("\n", refused));
    }
}
