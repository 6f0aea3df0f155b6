package org.jvmreuse.it.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.jvmreuse.it.Pool;

/**
 * The MPI shuffle on Hadoop 3.5.0 (mpi-shuffle3's jar: mpi-shuffle's sources with 3.x's
 * VersionParts), on one cluster for all its checks: two NodeManagers in pool mode, each pool's
 * manager running a Shuffle Manager, all ranks of one mpirun. A terasort over MPI (lent files)
 * is byte for byte the HTTP shuffle's, every map output over MPI; damaged map outputs (chunks as
 * MPI messages, as between hosts) are fetch failures and their maps run again; an uber job,
 * whose reducer 3.x runs under the plug-in with local map files, gives the stock shuffle's
 * output; a reducer outside a slot takes everything over HTTP; a Shuffle Manager that is gone
 * leaves its host's outputs to HTTP; every slot's warm-up ran both shuffles. MpiShuffleTest
 * checks the same and more on 2.2. Lean for CI: wordcounts are checked against the test's own
 * count of the words (JobOutput.wordCounts) instead of an HTTP run.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class Hadoop3MpiShuffleTest {
    private static final List<String> HTTP = List.of();
    private static final List<String> FILES = List.of(MpiShuffleTest.PLUGIN);
    private static final List<String> MESSAGES = List.of(MpiShuffleTest.PLUGIN, "-Djvmreuse.shuffle.direct=false");
    private static final String COUNTERS = MpiShuffleTest.COUNTERS;
    private static HadoopCluster cluster;
    private static Path text;

    @BeforeAll
    static void startCluster() throws Exception {
        // As many slots as containers per NodeManager: no task falls back to the stock launch.
        // With the slots' shuffle warm-up, on a small size.
        cluster = HadoopCluster.start(Map.of("JVMREUSE_WARMUP_SHUFFLE_KB", "256"), 2, "--pool", "--slots", "4",
                "--hadoop-version", Hadoop3StockClusterTest.VERSION);
        text = cluster.newDir("text");
        ExampleJobsTest.writeText(text, 6, 2000);
    }

    @AfterAll
    static void stopCluster() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static Job run(String name, List<String> shuffle, List<String> options, String... args) throws Exception {
        List<String> all = new ArrayList<>(List.of(name));
        all.addAll(options);
        all.addAll(shuffle);
        all.addAll(Arrays.asList(args));
        Job job = cluster.job(Hadoop3StockClusterTest.examples(), all);
        assertTrue(job.succeeded(), name + " " + shuffle + " failed:\n" + job);
        return job;
    }

    private static Path data(String name) {
        return cluster.dir.resolve("data").resolve(name);
    }

    @Test
    @Order(0)
    void thePoolsRunHadoop3sShuffleManager() {
        String said = cluster.startOutput().err();
        assertTrue(!said.contains("MPI shuffle off") && said.contains("org.jvmreuse.shuffle.server.ShuffleManager --service-cp "
                + Pool.REPO.resolve("mpi-shuffle3/target/mpi-shuffle3-")), said);
    }

    /** As on 2.2: 3.x's slots warm up Hadoop's HTTP shuffle and the MPI shuffle (through 3.x's shuffle context). */
    @Test
    @Order(0)
    void everySlotWarmedUpTheHttpAndMpiShuffles() throws Exception {
        MpiShuffleTest.assertEverySlotWarmedUpBothShuffles(cluster, 8);
    }

    @Test
    @Order(1)
    void terasortOverMpiIsByteIdenticalToTheHttpShuffle() throws Exception {
        run("teragen", HTTP, List.of("-Dmapreduce.job.maps=8"), "40000", data("teragen").toString());
        List<String> sort = List.of("-Dmapreduce.job.reduces=3", "-Dmapreduce.terasort.simplepartitioner=true");
        run("terasort", HTTP, sort, data("teragen").toString(), data("terasort-http").toString());
        Job job = run("terasort", FILES, sort, data("teragen").toString(), data("terasort-mpi").toString());
        MpiShuffleTest.assertAllOverMpi(job, 8, 3);
        MpiShuffleTest.assertOneWay(job, "LENT_FILE", 8 * 3);
        assertEquals(JobOutput.digests(data("terasort-http")), JobOutput.digests(data("terasort-mpi")), "output differs");
    }

    /**
     * As MpiShuffleTest's: maps 0-3 lose their output in four ways before the reducers fetch it,
     * here with the chunks over MPI.
     */
    @Test
    @Order(2)
    void damagedMapOutputsAreFetchFailuresAndTheMapsRunAgain() throws Exception {
        Path input = cluster.newDir("text12");
        ExampleJobsTest.writeText(input, 12, 500);
        List<String> options = List.of("-Dmapreduce.job.reduces=2", "-Dmapreduce.job.reduce.slowstart.completedmaps=1.0");
        try (MapOutputDamage damage = new MapOutputDamage(cluster, 2)) {
            Job job = run("wordcount", MESSAGES, options, input.toString(), data("wc-damaged").toString());
            assertEquals(Set.of(0, 1, 2, 3), damage.damaged(), "maps damaged before the fetch");
            Map<String, Long> c = job.counters();
            assertEquals(4L, c.getOrDefault("Job Counters/Failed map tasks", 0L), "failed maps: " + c);
            assertTrue(c.getOrDefault("Job Counters/Launched map tasks", 0L) >= 16, "maps not re-run: " + c);
            assertEquals(24L, c.getOrDefault(COUNTERS + "MPI_MAPS", 0L), "" + c);
            assertEquals(24L, c.getOrDefault(COUNTERS + "MPI_MESSAGE_SEGMENTS_SAME_HOST", 0L), "" + c);
        }
        assertEquals(JobOutput.wordCounts(input), JobOutput.countedWords(JobOutput.reduceOutput(data("wc-damaged"))));
    }

    /**
     * 3.x runs the reduce of an uber job (in its MRAppMaster's JVM) through the shuffle plug-in
     * too, with the map outputs as local files: the MPI plug-in hands them to Hadoop's own shuffle,
     * and the output is the stock shuffle's.
     */
    @Test
    @Order(3)
    void anUberJobsReducerUnderTheMpiPluginGivesTheStockShufflesOutput() throws Exception {
        Path input = cluster.newDir("uber-in");
        ExampleJobsTest.writeText(input, 3, 500);
        List<String> uber = List.of("-Dmapreduce.job.ubertask.enable=true", "-Dmapreduce.job.reduces=1");
        Job stock = run("wordcount", HTTP, uber, input.toString(), data("uber-stock").toString());
        Job mpi = run("wordcount", FILES, uber, input.toString(), data("uber-mpi").toString());
        for (Job job : List.of(stock, mpi)) {
            assertTrue(job.toString().contains("running in uber mode : true"), "not uber:\n" + job);
        }
        assertEquals(JobOutput.digests(data("uber-stock")), JobOutput.digests(data("uber-mpi")));
        Map<String, Long> c = mpi.counters();
        assertEquals(3L, c.getOrDefault(COUNTERS + "LOCAL_MAPS", -1L), "the plug-in read the local map files: " + c);
        assertEquals(-1L, c.getOrDefault(COUNTERS + "MPI_MAPS", -1L), "" + c);
    }

    /** A reducer launched the stock way (no slot, no MPI) runs the plug-in with everything over HTTP. */
    @Test
    @Order(4)
    void aReducerOutsideASlotTakesEveryMapOutputOverHttp() throws Exception {
        Job job = run("wordcount", FILES, List.of("-Dmapreduce.job.reduces=2", "-Dmapreduce.reduce.env=JVMREUSE_POOL=off"),
                text.toString(), data("wc-stockreduce").toString());
        Map<String, Long> c = job.counters();
        assertEquals(0L, c.getOrDefault(COUNTERS + "MPI_MAPS", -1L), "" + c);
        assertEquals(12L, c.getOrDefault(COUNTERS + "HTTP_MAPS", -1L), "" + c);
        assertEquals(JobOutput.wordCounts(text), JobOutput.countedWords(JobOutput.reduceOutput(data("wc-stockreduce"))));
    }

    /**
     * As MpiShuffleTest's: with NodeManager 2's pool (and its Shuffle Manager) stopped, reducers
     * in pool 1 take that host's map outputs over HTTP, and no map runs again. Runs last.
     */
    @Test
    @Order(Integer.MAX_VALUE)
    void theOutputsOfAHostWhoseShuffleManagerIsGoneComeOverHttp() throws Exception {
        List<String> options = List.of("-Dmapreduce.job.reduces=2", "-Dmapreduce.reduce.shuffle.read.timeout=20000",
                "-Djvmreuse.shuffle.liveness-ms=1000", "-Dmapreduce.map.speculative=false");
        var stopped = cluster.stopPool(2);
        assertEquals(0, stopped.code(), "pool 2 did not stop: " + stopped);
        Job job = run("wordcount", FILES, options, text.toString(), data("wc-lost").toString());
        Map<String, Long> c = job.counters();
        assertEquals(JobOutput.wordCounts(text), JobOutput.countedWords(JobOutput.reduceOutput(data("wc-lost"))));
        assertTrue(c.getOrDefault(COUNTERS + "LOST_SHUFFLE_MANAGERS", 0L) >= 1, "no reducer met the lost Shuffle Manager: " + c);
        assertTrue(c.getOrDefault(COUNTERS + "HTTP_MAPS", 0L) >= 1, "" + c);
        assertEquals(0L, c.getOrDefault("Job Counters/Failed map tasks", 0L), "maps failed: " + c);
        assertEquals(6L, c.get("Job Counters/Launched map tasks"), "maps ran again: " + c);
        assertEquals(0L, c.getOrDefault("Shuffle Errors/IO_ERROR", 0L), "fetch failures: " + c);
    }
}
