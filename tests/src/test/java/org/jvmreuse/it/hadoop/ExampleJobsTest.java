package org.jvmreuse.it.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.jvmreuse.it.Pool;

/**
 * Stock Hadoop example jobs on a real cluster of two NodeManagers with a pool each: every job
 * runs once with its tasks in the pools and once down the stock path (same cluster, same
 * configuration, the job opting out), and the outputs must be byte for byte the same, the
 * deterministic counters equal. Several jobs in a row share the same slots. The task launch
 * counters (hadoop-patch's TaskLaunches group) say where each task ran. The cluster starts
 * with a user's template override (JVMREUSE_CONF_OVERRIDES) and an extra property
 * (JVMREUSE_YARN_SITE_EXTRA), which the daemons must see.
 */
class ExampleJobsTest {
    private static final String TEMPLATE_PROPERTY =
            "<property><name>jvmreuse.test.template</name><value>override</value></property>";
    private static HadoopCluster cluster;
    private static Path text;
    private static Path overrides;

    @BeforeAll
    static void startCluster() throws Exception {
        overrides = Files.createTempDirectory(Path.of("/tmp"), "jrt-conf-overrides-");
        String yarnSite = Files.readString(Pool.REPO.resolve("job-scripts/conf/yarn-site.xml.in"));
        Files.writeString(overrides.resolve("yarn-site.xml.in"),
                yarnSite.replace("@EXTRA_PROPERTIES@", TEMPLATE_PROPERTY + "\n@EXTRA_PROPERTIES@"));
        cluster = HadoopCluster.start(Map.of("JVMREUSE_CONF_OVERRIDES", overrides.toString(),
                "JVMREUSE_YARN_SITE_EXTRA", "jvmreuse.test.extra=a&b"), 2, "--pool", "--slots", "2");
        text = cluster.newDir("text");
        writeText(text, 4, 3000);
    }

    @AfterAll
    static void stopCluster() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
        Files.deleteIfExists(overrides.resolve("yarn-site.xml.in"));
        Files.deleteIfExists(overrides);
    }

    /**
     * Bad overrides and a JDK too new for Hadoop 2.2 (a JDK directory whose release file says 23)
     * stop jvmreuse-cluster before it starts anything, with a message naming the problem.
     */
    @Test
    void badConfigurationAndJava23AreRefusedBeforeStart() throws Exception {
        Path scratch = Files.createTempDirectory(Path.of("/tmp"), "jrt-bad-conf-");
        try {
            Path jdk = Files.createDirectories(scratch.resolve("jdk23/bin"));
            Files.writeString(jdk.resolve("java"), "#!/bin/sh\nexit 1\n");
            assertTrue(jdk.resolve("java").toFile().setExecutable(true));
            Files.writeString(scratch.resolve("jdk23/release"), "JAVA_VERSION=\"23.0.1\"\n");
            Path bogus = Files.createDirectories(scratch.resolve("overrides"));
            Files.writeString(bogus.resolve("yarn-site.xml"), "<configuration/>\n");
            List<Object[]> cases = List.of(
                    new Object[] {Map.of("JVMREUSE_YARN_SITE_EXTRA", "a.b=1 notapair"), "'notapair' is not name=value"},
                    new Object[] {Map.of("JVMREUSE_CONF_OVERRIDES", bogus.toString()), "yarn-site.xml replaces no template"},
                    new Object[] {Map.of("JVMREUSE_CONF_OVERRIDES", scratch.resolve("none").toString()), "is not a readable directory"},
                    new Object[] {Map.of("JVMREUSE_CLUSTER_JAVA", scratch.resolve("jdk23").toString()), "do not run on Java 23 or later"});
            for (Object[] c : cases) {
                @SuppressWarnings("unchecked")
                Map<String, String> env = (Map<String, String>) c[0];
                Pool.Result r = Pool.exec(List.of(HadoopCluster.RUNNER.toString(), "start", "--dir",
                        scratch.resolve("cluster").toString()), env, null, 60);
                assertTrue(r.code() != 0 && r.err().contains((String) c[1]), env + ": " + r);
                assertTrue(Files.notExists(scratch.resolve("cluster/pids")), env + " started something");
            }
        } finally {
            try (var files = Files.walk(scratch)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }

    /**
     * The ResourceManager's and a NodeManager's effective configuration (their /conf page), and
     * every daemon's JVM options (JVMREUSE_DAEMON_OPTS, HadoopCluster.QUICK_JVM).
     */
    @Test
    void templateOverrideExtraPropertyAndDaemonOptionsReachTheDaemons() throws Exception {
        List<Path> pidFiles;
        try (var files = Files.list(cluster.dir.resolve("pids"))) {
            pidFiles = files.toList();
        }
        assertTrue(pidFiles.size() >= 3, "pid files of RM, JHS and NM: " + pidFiles);
        for (Path pidFile : pidFiles) {
            String cmdline = Files.readString(Path.of("/proc/" + Files.readString(pidFile).trim() + "/cmdline"));
            for (String option : HadoopCluster.QUICK_JVM.split(" ")) {
                assertTrue(cmdline.contains(option + "\0"), pidFile.getFileName() + " runs without " + option + ": " + cmdline);
            }
        }
        String env = Files.readString(cluster.dir.resolve("cluster.env"));
        for (String port : List.of("PORT_rm_web", "PORT_nm1_web")) {
            Matcher m = Pattern.compile("(?m)^" + port + "=(\\d+)$").matcher(env);
            assertTrue(m.find(), port + " in cluster.env");
            String conf;
            try (InputStream in = URI.create("http://127.0.0.1:" + m.group(1) + "/conf").toURL().openStream()) {
                conf = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            assertTrue(conf.contains("<name>jvmreuse.test.template</name><value>override</value>"),
                    "the override template's property on " + port);
            assertTrue(conf.contains("<name>jvmreuse.test.extra</name><value>a&amp;b</value>"),
                    "the extra property on " + port);
        }
    }

    /** Words from a small vocabulary with a fixed seed: many repeats, so the reduce matters. */
    static void writeText(Path dir, int files, int lines) throws IOException {
        Random random = new Random(42);
        String[] words = new String[500];
        for (int i = 0; i < words.length; i++) {
            words[i] = Integer.toString(i * 7919, 36) + (i % 3 == 0 ? "ab" : "");
        }
        for (int f = 0; f < files; f++) {
            StringBuilder sb = new StringBuilder();
            for (int l = 0; l < lines; l++) {
                int n = 1 + random.nextInt(12);
                for (int w = 0; w < n; w++) {
                    sb.append(w == 0 ? "" : " ").append(words[random.nextInt(words.length)]);
                }
                sb.append('\n');
            }
            Files.writeString(dir.resolve("part-" + f + ".txt"), sb);
        }
    }

    /** Runs the example twice, pooled then stock, into NAME-slots and NAME-stock; checks where tasks ran. */
    private static Job[] both(String name, List<String> options, String... argsWithOut) throws Exception {
        Job[] jobs = new Job[2];
        for (int side = 0; side < 2; side++) {
            boolean pooled = side == 0;
            String[] args = argsWithOut.clone();
            for (int i = 0; i < args.length; i++) {
                args[i] = args[i].replace("@OUT@", pooled ? "slots" : "stock"); // same length: equal job.xml sizes
            }
            List<String> all = new ArrayList<>(options);
            all.addAll(pooled ? HadoopCluster.POOLED : HadoopCluster.STOCK);
            cluster.awaitIdlePools(); // the previous job's AM ends a few seconds after its client
            long before = cluster.pooledRuns();
            long amsBefore = cluster.pooledAmRuns();
            Job job = cluster.example(name, all, args);
            assertTrue(job.succeeded(), name + (pooled ? " (pool)" : " (stock)") + " failed:\n" + job);
            cluster.awaitIdlePools();
            long ams = cluster.pooledAmRuns() - amsBefore;
            long ran = cluster.pooledRuns() - before - ams;
            int jobsRun = job.result().out().split("Running job: ", -1).length + job.result().err().split("Running job: ", -1).length - 2;
            if (pooled) {
                assertTrue(ran > 0, name + ": no task ran in a pool");
                // a client's second job may find its pool's AM slot still held by the first job's
                // AM, which serves its clients 5 s after its job: it waits, then starts a JVM
                assertTrue(ams >= 1 && ams <= jobsRun, name + ": " + ams + " of " + jobsRun + " jobs' MRAppMasters in a slot");
                assertTrue(jobsRun > 1 || ams == 1, name + ": its MRAppMaster did not run in a slot");
            } else {
                assertEquals(0, ran + ams, name + ": the stock run used the pool");
            }
            if (jobsRun == 1) {
                assertLaunchCounters(name + (pooled ? " (pool)" : " (stock)"), job.counters(), ran); // one job: its tasks are the runs
            }
            jobs[side] = job;
        }
        return jobs;
    }

    private static Path out(String job, String side) {
        return cluster.dir.resolve("data").resolve(job + "-" + side);
    }

    private static void assertSameOutput(String job) throws Exception {
        Map<String, String> pool = JobOutput.digests(out(job, "slots"));
        Map<String, String> stock = JobOutput.digests(out(job, "stock"));
        assertEquals(stock, pool, job + ": output differs between stock and pool");
    }

    /** Counters that depend only on the data; time, memory and CPU counters differ run to run. */
    static Map<String, Long> deterministic(Map<String, Long> counters) {
        Map<String, Long> kept = new TreeMap<>();
        counters.forEach((k, v) -> {
            boolean measured = k.startsWith("Job Counters") || k.startsWith(LAUNCHES) || k.contains("time") || k.contains("memory")
                    || k.contains("heap") || k.contains("CPU") || k.contains("GC");
            if (!measured) {
                kept.put(k, v);
            }
        });
        return kept;
    }

    /** The display name of the group org.jvmreuse.hadoop.counters.TaskLaunches, as the job client prints it. */
    private static final String LAUNCHES = "Task launches/";

    /**
     * In the job client's counters: as many pooled tasks as the pools ran, the job's other tasks
     * stock. Attempts that were killed (speculation) or failed count in neither, though a pool
     * may have run them.
     */
    private static void assertLaunchCounters(String what, Map<String, Long> counters, long pooledRuns) {
        long lost = 0;
        for (String attempts : List.of("Killed map tasks", "Killed reduce tasks", "Failed map tasks", "Failed reduce tasks")) {
            lost += counters.getOrDefault("Job Counters/" + attempts, 0L);
        }
        long tasks = counters.getOrDefault("Job Counters/Launched map tasks", 0L)
                + counters.getOrDefault("Job Counters/Launched reduce tasks", 0L) - lost;
        assertTrue(tasks > 0, what + ": no tasks in " + counters);
        Long pooled = counters.get(LAUNCHES + "Tasks run in a pool slot");
        Long stock = counters.get(LAUNCHES + "Tasks run in a new JVM");
        assertTrue(pooled != null && stock != null, what + ": no task launch counters in " + counters);
        if (lost == 0) {
            assertEquals(pooledRuns, pooled, what + ": pooled tasks in " + counters);
        } else {
            assertTrue(pooled <= pooledRuns, what + ": more pooled tasks than pooled runs (" + pooledRuns + ") in " + counters);
        }
        assertEquals(tasks, pooled + stock, what + ": pooled and stock tasks in " + counters);
    }

    /** {@code mapred job -status} and the JobHistoryServer give a finished job the client's launch counters. */
    private static void assertLaunchCountersKept(Job job) throws Exception {
        String id = job.lastJobId();
        Map<String, Long> client = job.counters();
        var status = cluster.mapred("job", "-status", id);
        assertEquals(0, status.code(), "mapred job -status " + id + " failed: " + status);
        Map<String, Long> shown = new Job(status).counters();
        for (String name : List.of("Tasks run in a pool slot", "Tasks run in a new JVM")) {
            assertEquals(client.get(LAUNCHES + name), shown.get(LAUNCHES + name), "mapred job -status " + id + ": " + name);
        }
        Map<String, Long> history = cluster.historyCounters(id);
        assertEquals(client.get(LAUNCHES + "Tasks run in a pool slot"), history.get("POOLED_TASKS"), "history of " + id + ": " + history);
        assertEquals(client.get(LAUNCHES + "Tasks run in a new JVM"), history.get("STOCK_TASKS"), "history of " + id + ": " + history);
    }

    private static void assertSameCounters(String name, Job[] jobs) {
        Map<String, Long> pool = deterministic(jobs[0].counters());
        Map<String, Long> stock = deterministic(jobs[1].counters());
        assertTrue(pool.containsKey("File System Counters/FILE: Number of bytes read"), name + ": counters " + pool);
        assertTrue(pool.keySet().stream().anyMatch(k -> k.contains("records")), name + ": counters " + pool);
        assertEquals(stock, pool, name + ": counters differ between stock and pool");
    }

    @Test
    void wordcountAndGrep() throws Exception {
        Job[] wc = both("wordcount", List.of("-Dmapreduce.job.reduces=2"), text.toString(),
                cluster.dir.resolve("data/wordcount-@OUT@").toString());
        assertSameOutput("wordcount");
        assertSameCounters("wordcount", wc);
        assertLaunchCountersKept(wc[0]);
        assertLaunchCountersKept(wc[1]);
        both("grep", List.of(), text.toString(), cluster.dir.resolve("data/grep-@OUT@").toString(), "[a-f]+ab");
        assertSameOutput("grep");
    }

    @Test
    void teragenTerasortTeravalidate() throws Exception {
        both("teragen", List.of("-Dmapreduce.job.maps=3"), "30000", cluster.dir.resolve("data/teragen-@OUT@").toString());
        assertSameOutput("teragen");
        // With more than one reduce, TeraSort's total-order partitioner fails on this file://
        // cluster, stock and pooled alike (it finds no _partition.lst in the task's directory);
        // its simple partitioner keeps two reduces and a total order.
        Job[] sort = both("terasort", List.of("-Dmapreduce.job.reduces=2", "-Dmapreduce.terasort.simplepartitioner=true"),
                out("teragen", "stock").toString(),
                cluster.dir.resolve("data/terasort-@OUT@").toString());
        assertSameOutput("terasort");
        assertSameCounters("terasort", sort);
        both("teravalidate", List.of(), cluster.dir.resolve("data/terasort-@OUT@").toString(),
                cluster.dir.resolve("data/teravalidate-@OUT@").toString());
        assertSameOutput("teravalidate");
        String report = Files.readString(out("teravalidate", "slots").resolve("part-r-00000"));
        assertTrue(report.startsWith("checksum"), "teravalidate found problems: " + report);
    }

    @Test
    void piAndRandomWritersAndSort() throws Exception {
        Job[] pi = both("pi", List.of(), "4", "2000");
        String estimate = pi[1].result().out().lines().filter(l -> l.startsWith("Estimated value of Pi")).findFirst()
                .orElseThrow(() -> new AssertionError("pi printed no estimate:\n" + pi[1]));
        assertTrue(pi[0].result().out().contains(estimate), "pi differs: pool printed\n" + pi[0].result().out());

        // Random data differs on every run by design: both sides must succeed and write what they were asked.
        Job[] random = both("randomwriter", List.of("-Dmapreduce.randomwriter.mapsperhost=1",
                "-Dmapreduce.randomwriter.bytespermap=200000"), cluster.dir.resolve("data/randomwriter-@OUT@").toString());
        for (Job job : random) {
            assertTrue(job.counters().getOrDefault("org.apache.hadoop.examples.RandomWriter$Counters/BYTES_WRITTEN", 0L)
                    >= 2 * 200000, "randomwriter wrote too little: " + job.counters());
        }
        both("randomtextwriter", List.of("-Dmapreduce.randomtextwriter.mapsperhost=1",
                "-Dmapreduce.randomtextwriter.totalbytes=200000"), cluster.dir.resolve("data/randomtextwriter-@OUT@").toString());
        // sort the same random input on both sides; SequenceFiles carry a random sync marker, so
        // compare what they hold.
        both("sort", List.of("-Dmapreduce.job.reduces=2"), out("randomwriter", "stock").toString(),
                cluster.dir.resolve("data/sort-@OUT@").toString());
        assertEquals(JobOutput.text(cluster, out("sort", "stock")), JobOutput.text(cluster, out("sort", "slots")));
    }

}
