package org.jvmreuse.it.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The MPI shuffle on a real cluster: two NodeManagers, each with a pool whose manager runs a
 * Shuffle Manager, all ranks of one mpirun. Jobs with the MPI shuffle (concurrent and blocking)
 * must give byte for byte the output of the same job with Hadoop's HTTP shuffle, with every map
 * output taken over MPI from both nodes; damaged map outputs must end in fetch failures, re-run
 * maps and a correct result; a Shuffle Manager that is gone must leave its host's outputs to HTTP.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class MpiShuffleTest {
    static final String PLUGIN = "-Dmapreduce.job.reduce.shuffle.consumer.plugin.class="
            + "org.jvmreuse.shuffle.reduce.MpiShuffle";
    private static final List<String> HTTP = List.of();
    private static final List<String> CONCURRENT = List.of(PLUGIN, "-Djvmreuse.shuffle.mode=concurrent");
    private static final List<String> BLOCKING = List.of(PLUGIN, "-Djvmreuse.shuffle.mode=blocking");
    /** The three ways a segment travels: a lent file (one host, the default), chunks over MPI (as between hosts), direct chunks. */
    private static final List<Map.Entry<String, List<String>>> WAYS = List.of(
            Map.entry("concurrent-files", CONCURRENT),
            Map.entry("blocking-mpi", List.of(PLUGIN, "-Djvmreuse.shuffle.mode=blocking", "-Djvmreuse.shuffle.direct=false")),
            Map.entry("concurrent-chunks", List.of(PLUGIN, "-Djvmreuse.shuffle.mode=concurrent",
                    "-Djvmreuse.shuffle.direct-files=false")));
    static final String COUNTERS = "org.jvmreuse.shuffle.MpiShuffle/";
    /** Tests that do not depend on the MPI backend: tests/pom.xml's Java-bindings execution leaves them out. */
    private static final String ONCE = "backend-independent";
    private static final Pattern SERVED = Pattern.compile("MPI shuffle: serving (attempt_\\S+) partition (\\d+) .* to rank (\\d+)");

    private static HadoopCluster cluster;
    private static Path text;

    @BeforeAll
    static void startCluster() throws Exception {
        // As many slots as containers per NodeManager: no task falls back to the stock launch
        // (whose reducers would fetch over HTTP)
        // (not speed: see HadoopCluster). With the slots' shuffle warm-up, on a small size.
        cluster = HadoopCluster.start(Map.of("JVMREUSE_WARMUP_SHUFFLE_KB", "256"), 2, "--pool", "--slots", "4");
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
        List<String> all = new ArrayList<>(options);
        all.addAll(shuffle);
        Job job = cluster.example(name, all, args);
        assertTrue(job.succeeded(), name + " " + shuffle + " failed:\n" + job);
        return job;
    }

    /** Every map output a reducer took came over MPI. */
    static void assertAllOverMpi(Job job, int maps, int reduces) {
        Map<String, Long> c = job.counters();
        assertEquals((long) maps * reduces, c.getOrDefault(COUNTERS + "MPI_MAPS", -1L), "map outputs over MPI: " + c);
        assertEquals(0L, c.getOrDefault(COUNTERS + "HTTP_MAPS", -1L), "map outputs over HTTP: " + c);
        assertEquals(c.get("Map-Reduce Framework/Reduce shuffle bytes"), c.get(COUNTERS + "MPI_BYTES"), "bytes: " + c);
    }

    /**
     * The MPI shuffle's counters per way and host: on this one host every segment came {@code way}
     * and from the same host (all its bytes), none from another host.
     */
    static void assertOneWay(Job job, String way, int segments) {
        Map<String, Long> c = job.counters();
        for (String w : List.of("LENT_FILE", "DIRECT_COPY", "MPI_MESSAGE")) {
            assertEquals(w.equals(way) ? segments : 0L, c.getOrDefault(COUNTERS + w + "_SEGMENTS_SAME_HOST", -1L), w + ": " + c);
            assertEquals(w.equals(way) ? c.get(COUNTERS + "MPI_BYTES") : 0L, c.getOrDefault(COUNTERS + w + "_BYTES_SAME_HOST", -1L),
                    w + ": " + c);
            assertEquals(0L, c.getOrDefault(COUNTERS + w + "_SEGMENTS_OTHER_HOST", -1L), w + ": " + c);
            assertEquals(0L, c.getOrDefault(COUNTERS + w + "_BYTES_OTHER_HOST", -1L), w + ": " + c);
        }
        assertEquals(0L, c.getOrDefault(COUNTERS + "HTTP_BYTES", -1L), "bytes over HTTP: " + c);
    }

    private static Path data(String name) {
        return cluster.dir.resolve("data").resolve(name);
    }

    /** (map attempt, partition, requesting rank) of every segment each pool's Shuffle Manager served. */
    private static Map<Integer, Set<String>> servedByPool() throws IOException {
        Map<Integer, Set<String>> served = new TreeMap<>();
        for (int i = 1; i <= cluster.nodeManagers; i++) {
            Set<String> segments = ConcurrentHashMap.newKeySet();
            try (Stream<Path> logs = Files.list(cluster.dir.resolve("pool" + i + "/logs"))) {
                for (Path log : logs.filter(p -> p.getFileName().toString().startsWith("manager")).toList()) {
                    Matcher m = SERVED.matcher(Files.readString(log));
                    while (m.find()) {
                        segments.add(m.group(1) + "/" + m.group(2) + "<-" + m.group(3));
                    }
                }
            }
            served.put(i, segments);
        }
        return served;
    }

    /** How many segments the pools' Shuffle Managers have served by lending their file. */
    private static long filesLent() throws IOException {
        long lent = 0;
        for (int i = 1; i <= cluster.nodeManagers; i++) {
            try (Stream<Path> logs = Files.list(cluster.dir.resolve("pool" + i + "/logs"))) {
                for (Path log : logs.filter(p -> p.getFileName().toString().startsWith("manager")).toList()) {
                    lent += Files.readString(log).split(", file lent\\) to rank", -1).length - 1;
                }
            }
        }
        return lent;
    }

    /**
     * Every slot's warm-up ran a reducer's shuffle over HTTP and then over MPI (TaskWarmup checks
     * that each merged all the maps' records; a slot whose warm-up fails never serves).
     */
    @Test
    @Order(0)
    void everySlotWarmedUpTheHttpAndMpiShuffles() throws Exception {
        assertEverySlotWarmedUpBothShuffles(cluster, 8);
    }

    /** At least {@code atLeast} slots of {@code cluster} (spares still warming up aside) warmed up both shuffles. */
    static void assertEverySlotWarmedUpBothShuffles(HadoopCluster cluster, int atLeast) throws Exception {
        Pattern shuffled = Pattern.compile("warm-up shuffle: \\[http: 12 maps, (\\d+) records, (\\d+) bytes merged in \\d+ ms, "
                + "mpi: 12 maps, (\\d+) records, (\\d+) bytes merged");
        int slots = 0;
        for (int i = 1; i <= cluster.nodeManagers; i++) {
            try (Stream<Path> logs = Files.list(cluster.dir.resolve("pool" + i + "/logs"))) {
                for (Path log : logs.filter(p -> p.getFileName().toString().startsWith("slot")).toList()) {
                    String text = Files.readString(log);
                    if (!text.contains("runs of org.jvmreuse.hadoop.warmup.TaskWarmup in")) {
                        continue; // a spare slot still warming up
                    }
                    Matcher m = shuffled.matcher(text);
                    assertTrue(m.find(), log + " has no shuffle warm-up:\n" + text);
                    assertTrue(Long.parseLong(m.group(1)) > 1000, m.group());
                    assertEquals(m.group(1), m.group(3), m.group());
                    assertEquals(m.group(2), m.group(4), m.group());
                    slots++;
                }
            }
        }
        assertTrue(slots >= atLeast, "slots warmed up: " + slots);
    }

    @Test
    void terasortIsByteIdenticalOverMpiInEveryWay() throws Exception {
        // 8 maps: more than one NodeManager holds at once, so both nodes serve map outputs (below).
        run("teragen", HTTP, List.of("-Dmapreduce.job.maps=8"), "40000", data("teragen").toString());
        List<String> sort = List.of("-Dmapreduce.job.reduces=3", "-Dmapreduce.terasort.simplepartitioner=true");
        run("terasort", HTTP, sort, data("teragen").toString(), data("terasort-http").toString());
        Map<String, String> expected = JobOutput.digests(data("terasort-http"));
        Map<Integer, Set<String>> first = servedByPool();
        for (var mode : WAYS) {
            Map<Integer, Set<String>> before = servedByPool();
            long lentBefore = filesLent();
            Job job = run("terasort", mode.getValue(), sort, data("teragen").toString(),
                    data("terasort-" + mode.getKey()).toString());
            assertAllOverMpi(job, 8, 3);
            assertOneWay(job, mode.getKey().endsWith("-files") ? "LENT_FILE" : mode.getKey().endsWith("-mpi") ? "MPI_MESSAGE"
                    : "DIRECT_COPY", 8 * 3);
            assertEquals(expected, JobOutput.digests(data("terasort-" + mode.getKey())), mode.getKey() + ": output differs");
            Map<Integer, Set<String>> after = servedByPool();
            Set<String> reducers = new java.util.HashSet<>();
            for (int pool : after.keySet()) {
                Set<String> fresh = new java.util.HashSet<>(after.get(pool));
                fresh.removeAll(before.get(pool));
                fresh.forEach(s -> reducers.add(s.substring(s.indexOf("<-"))));
            }
            assertTrue(reducers.size() >= 2, "segments went to only " + reducers + " (" + mode.getKey() + ")");
            long lent = filesLent() - lentBefore;
            if (mode.getKey().endsWith("-files")) {
                assertEquals(8L * 3, lent, "every segment's file is lent on this host");
            } else {
                assertEquals(0L, lent, mode.getKey() + " lent files");
            }
            run("teravalidate", mode.getValue(), List.of(), data("terasort-" + mode.getKey()).toString(),
                    data("teravalidate-" + mode.getKey()).toString());
            String report = Files.readString(data("teravalidate-" + mode.getKey()).resolve("part-r-00000"));
            assertTrue(report.startsWith("checksum"), "teravalidate found problems: " + report);
        }
        // Every node's Shuffle Manager served map outputs. Over all the sorts, not each: YARN may
        // place all 8 maps of one sort on one node while a finished AM's container holds the other's
        // memory for its last 5 s.
        Map<Integer, Set<String>> last = servedByPool();
        for (int pool : last.keySet()) {
            assertTrue(!last.get(pool).equals(first.get(pool)), "pool " + pool + "'s Shuffle Manager served nothing");
        }
    }

    @Test
    @Tag(ONCE) // the transport's ways are terasortIsByteIdenticalOverMpiInEveryWay's; the rest is the plug-in's Java code
    void wordcountAndSortMatchTheHttpShuffle() throws Exception {
        List<String> wc = List.of("-Dmapreduce.job.reduces=2");
        run("wordcount", HTTP, wc, text.toString(), data("wc-http").toString());
        Job mpi = run("wordcount", CONCURRENT, List.of("-Dmapreduce.job.reduces=2",
                "-Dmapreduce.reduce.shuffle.parallelcopies=1"), text.toString(), data("wc-mpi").toString());
        assertAllOverMpi(mpi, 6, 2);
        assertEquals(JobOutput.digests(data("wc-http")), JobOutput.digests(data("wc-mpi")));
        // Reducers launched the stock way have no MPI: the plug-in takes everything over HTTP.
        Job stockReducers = run("wordcount", CONCURRENT, List.of("-Dmapreduce.job.reduces=2",
                "-Dmapreduce.reduce.env=JVMREUSE_POOL=off"), text.toString(), data("wc-stockreduce").toString());
        assertEquals(0L, stockReducers.counters().getOrDefault(COUNTERS + "MPI_MAPS", -1L), "" + stockReducers.counters());
        assertEquals(12L, stockReducers.counters().getOrDefault(COUNTERS + "HTTP_MAPS", -1L), "" + stockReducers.counters());
        assertEquals(JobOutput.digests(data("wc-http")), JobOutput.digests(data("wc-stockreduce")));

        run("randomwriter", HTTP, List.of("-Dmapreduce.randomwriter.mapsperhost=2",
                "-Dmapreduce.randomwriter.bytespermap=300000"), data("random").toString());
        List<String> sort = List.of("-Dmapreduce.job.reduces=2");
        run("sort", HTTP, sort, data("random").toString(), data("sort-http").toString());
        Job sorted = run("sort", BLOCKING, sort, data("random").toString(), data("sort-mpi").toString());
        assertTrue(sorted.counters().getOrDefault(COUNTERS + "MPI_MAPS", 0L) >= 4, "sort: " + sorted.counters());
        assertEquals(0L, sorted.counters().getOrDefault(COUNTERS + "HTTP_MAPS", -1L));
        assertEquals(JobOutput.text(cluster, data("sort-http")), JobOutput.text(cluster, data("sort-mpi")));
    }


    /**
     * Maps 0-3 of a 12-map wordcount lose their output in four ways before the reducers fetch
     * it: file.out deleted, file.out truncated, index corrupted, data corrupted (an IFile
     * checksum error). The reducers report fetch failures, the AM fails exactly those four map
     * attempts and runs them again, and the output is the same as without damage; nothing hangs.
     * (With most of a job's maps damaged, Hadoop's reducers give up and are re-run, over HTTP as
     * over MPI: 4 of 12 keeps this to the fetch-failure path.)
     */
    /**
     * A task of one job cannot read another job's map output over MPI: while a job's reducer
     * sleeps (its map outputs kept on their nodes), a task of another job in a pool slot asks every
     * Shuffle Manager for it through its slot's MPI, with its own job's shuffle HMAC, and is refused
     * everywhere. The same task given the victim's secret (read here from where its NodeManager
     * recorded it) gets the segment: the output was there to take, and only the HMAC kept it.
     */
    @Test
    @Tag(ONCE) // the check is the Shuffle Manager's Java code, whatever the pool's MPI backend
    void aTaskOfOneJobCannotReadAnotherJobsMapOutput() throws Exception {
        Set<Path> earlier = new java.util.HashSet<>(mapIndexes());
        Path jar = JobJars.withMarker(cluster.dir, "snoop");
        List<String> args = new ArrayList<>(JobJars.main("SlowReduceJob"));
        args.addAll(List.of("-Dsleep.ms=120000", text.toString(), cluster.dir.resolve("data/victim").toString()));
        Path log = cluster.dir.resolve("victim.log");
        Process victim = cluster.startJob(jar, args, log);
        String app = null;
        try {
            Path index = null;
            for (long deadline = System.nanoTime() + 120_000_000_000L; index == null && System.nanoTime() < deadline; ) {
                index = mapIndexes().stream().filter(p -> !earlier.contains(p)).findFirst().orElse(null);
                Thread.sleep(200);
            }
            assertTrue(index != null, "the victim's map output never appeared:\n" + Files.readString(log));
            Path output = index.getParent();
            app = output.getParent().getParent().getFileName().toString();
            String jobId = "job_" + app.substring("application_".length());
            Path local = output.getParent().getParent().getParent().getParent().getParent().getParent();
            byte[] secret = Files.readAllBytes(local.resolve("nmPrivate/" + app + "/jvmreuse-shuffle-secret"));

            Map<String, String> own = snoop(jar, "snoop-own", jobId, output.getFileName().toString(), null);
            Map<String, String> victims = snoop(jar, "snoop-victims", jobId, output.getFileName().toString(),
                    java.util.Base64.getEncoder().encodeToString(secret));
            assertEquals(2, own.size(), "both Shuffle Managers asked: " + own);
            assertTrue(own.values().stream().noneMatch(r -> r.startsWith("DATA")), "another job's task read it: " + own);
            assertTrue(own.values().stream().anyMatch(r -> r.contains("does not carry the shuffle HMAC of " + jobId)),
                    "refused for its HMAC: " + own);
            assertTrue(victims.values().stream().anyMatch(r -> r.startsWith("DATA")),
                    "with the victim's secret the same request is served: " + victims);
        } finally {
            if (app != null) {
                cluster.yarn("application", "-kill", app);
            }
            victim.destroy();
            victim.waitFor();
        }
    }

    /** Every map output index on the NodeManagers now. */
    private static List<Path> mapIndexes() throws IOException {
        List<Path> indexes = new ArrayList<>();
        for (int nm = 1; nm <= cluster.nodeManagers; nm++) {
            Path local = cluster.dir.resolve("nm" + nm + "/local/usercache");
            if (Files.isDirectory(local)) {
                try (Stream<Path> files = Files.walk(local, 6)) {
                    files.filter(p -> p.getFileName().toString().equals("file.out.index")).forEach(indexes::add);
                } catch (java.io.UncheckedIOException e) {
                    // a directory vanished while walking; the next look finds the rest
                }
            }
        }
        return indexes;
    }

    /** Runs the snoop job (its task pooled) and returns its lines: Shuffle Manager rank to reply. */
    private static Map<String, String> snoop(Path jar, String out, String jobId, String mapId, String secret) throws Exception {
        Path input = JobJars.lines(cluster.dir.resolve("data"), out + "-in", 1);
        Path output = cluster.dir.resolve("data/" + out);
        List<String> args = new ArrayList<>(JobJars.main("ShuffleSnoopJob"));
        args.addAll(HadoopCluster.POOLED);
        args.addAll(List.of("-Dsnoop.job=" + jobId, "-Dsnoop.map=" + mapId));
        if (secret != null) {
            args.add("-Dsnoop.secret=" + secret);
        }
        args.addAll(List.of(input.toString(), output.toString()));
        Job job = cluster.job(jar, args);
        assertTrue(job.succeeded(), "snoop job failed:\n" + job);
        Map<String, String> replies = new TreeMap<>();
        try (Stream<Path> parts = Files.list(output)) {
            for (Path part : parts.filter(p -> p.getFileName().toString().startsWith("part-")).toList()) {
                for (String line : Files.readAllLines(part)) {
                    String[] fields = line.split("\t", 2);
                    replies.put(fields[0], fields[1]);
                }
            }
        }
        return replies;
    }

    @Test
    @Tag(ONCE) // fetch failures are reported by the reducer's Java code, whatever the pool's MPI backend
    void damagedMapOutputsAreFetchFailuresAndTheMapsRunAgain() throws Exception {
        Path input = cluster.newDir("text12");
        ExampleJobsTest.writeText(input, 12, 500);
        Path expected = data("wc-clean");
        List<String> options = List.of("-Dmapreduce.job.reduces=2", "-Dmapreduce.job.reduce.slowstart.completedmaps=1.0");
        run("wordcount", HTTP, options, input.toString(), expected.toString());
        for (var mode : WAYS.subList(0, 2)) { // a lent file's read, chunks over MPI
            try (MapOutputDamage damage = new MapOutputDamage(cluster, 2)) {
                Job job = run("wordcount", mode.getValue(), options, input.toString(), data("wc-damaged-" + mode.getKey()).toString());
                assertEquals(Set.of(0, 1, 2, 3), damage.damaged(), "maps damaged before the fetch: " + damage.damaged());
                Map<String, Long> c = job.counters();
                assertEquals(4L, c.getOrDefault("Job Counters/Failed map tasks", 0L), mode.getKey() + ": failed maps: " + c);
                assertTrue(c.getOrDefault("Job Counters/Launched map tasks", 0L) >= 16, mode.getKey() + ": maps not re-run: " + c);
                assertEquals(24L, c.getOrDefault(COUNTERS + "MPI_MAPS", 0L), mode.getKey() + ": " + c);
                assertEquals(JobOutput.digests(expected), JobOutput.digests(data("wc-damaged-" + mode.getKey())), mode.getKey());
            }
        }
    }

    /**
     * NodeManager 2's pool, and with it its Shuffle Manager, is stopped; the launch and its
     * service directory go on, so reducers in pool 1 still see that host as MPI. They find its
     * Shuffle Manager silent, ask whether it is there, and take that host's map outputs over
     * HTTP: the output is the HTTP shuffle's, no fetch fails, no map runs again, and nobody waits
     * for the read time-out. Runs last: pool 2 stays stopped.
     */
    @Test
    @Order(Integer.MAX_VALUE)
    @Tag(ONCE) // the fall-back is the reducer's, whatever the pool's MPI backend
    void theOutputsOfAHostWhoseShuffleManagerIsGoneComeOverHttp() throws Exception {
        List<String> options = List.of("-Dmapreduce.job.reduces=2", "-Dmapreduce.reduce.shuffle.read.timeout=20000",
                "-Djvmreuse.shuffle.liveness-ms=1000", "-Dmapreduce.map.speculative=false");
        Path expected = data("wc-http"); // the HTTP shuffle's output, made by wordcountAndSortMatchTheHttpShuffle
        if (!Files.isDirectory(expected)) {
            run("wordcount", HTTP, options, text.toString(), expected.toString());
        }
        var stopped = cluster.stopPool(2);
        assertEquals(0, stopped.code(), "pool 2 did not stop: " + stopped);
        long start = System.nanoTime();
        Job job = run("wordcount", CONCURRENT, options, text.toString(), data("wc-lost").toString());
        long seconds = (System.nanoTime() - start) / 1_000_000_000L;
        Map<String, Long> c = job.counters();
        assertEquals(JobOutput.digests(expected), JobOutput.digests(data("wc-lost")));
        assertTrue(c.getOrDefault(COUNTERS + "LOST_SHUFFLE_MANAGERS", 0L) >= 1, "no reducer met the lost Shuffle Manager"
                + " (did both reducers run on NodeManager 2?): " + c);
        assertTrue(c.getOrDefault(COUNTERS + "HTTP_MAPS", 0L) >= 1, "" + c);
        assertEquals(0L, c.getOrDefault("Job Counters/Failed map tasks", 0L), "maps failed: " + c);
        assertEquals(6L, c.get("Job Counters/Launched map tasks"), "maps ran again: " + c);
        assertEquals(0L, c.getOrDefault("Shuffle Errors/IO_ERROR", 0L), "fetch failures: " + c);
        assertTrue(seconds < 60, "the job took " + seconds + " s");
        System.out.println("MpiShuffleTest: wordcount with a lost Shuffle Manager took " + seconds + " s: " + c);
    }
}
