package org.jvmreuse.it.hadoop;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jvmreuse.it.Pool;
import org.jvmreuse.it.Pool.Result;

/**
 * A real one-machine Hadoop cluster for a test (ResourceManager, JobHistoryServer, NodeManagers
 * and, in pool mode, one pool per NodeManager, all of them ranks of one mpirun), brought up and
 * torn down with job-scripts/bin/jvmreuse-cluster; jobs are submitted with the cluster's own
 * client wrappers.
 */
public final class HadoopCluster implements AutoCloseable {
    public static final Path LIB = Pool.REPO.resolve("hadoop-patch/target/hadoop/lib");
    public static final Path EXAMPLES = LIB.resolve("hadoop-mapreduce-examples-2.2.0.jar");
    static final Path RUNNER = Pool.REPO.resolve("job-scripts/bin/jvmreuse-cluster");
    /** Job options that send a job's tasks and its MRAppMaster down the stock path on a pool cluster. */
    public static final List<String> STOCK = List.of("-Dmapreduce.map.env=JVMREUSE_POOL=off",
            "-Dmapreduce.reduce.env=JVMREUSE_POOL=off", "-Dyarn.app.mapreduce.am.env=JVMREUSE_POOL=off");
    /**
     * The same settings with the pool left on. Every task writes its job configuration to its
     * directory (counted in FILE_BYTES_WRITTEN), so a comparison with a stock run must carry
     * settings of the same size.
     */
    public static final List<String> POOLED = List.of("-Dmapreduce.map.env=JVMREUSE_POOL=yes",
            "-Dmapreduce.reduce.env=JVMREUSE_POOL=yes", "-Dyarn.app.mapreduce.am.env=JVMREUSE_POOL=yes");
    /**
     * JVM options of the tests' Hadoop daemons and clients (JVMREUSE_DAEMON_OPTS,
     * HADOOP_CLIENT_OPTS): a daemon that lives for one test class, or a job client, never earns
     * back C2's compiles, which took a third of a small job's CPU on 2 vCPUs. Tasks, AppMasters
     * and slots, what the tests are about, keep Hadoop's and the JVM's defaults.
     */
    public static final String QUICK_JVM = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC";
    private static final Map<String, String> CLIENT_ENV = Map.of("HADOOP_CLIENT_OPTS", QUICK_JVM);
    private static final Pattern COMPLETED = Pattern.compile("runs: completed (\\d+)");
    private static final Pattern AM_COMPLETED = Pattern.compile("application masters: .*, (\\d+) completed");

    public final Path dir;
    public final int nodeManagers;
    /** What {@code jvmreuse-cluster start} printed. */
    private Result started;

    private HadoopCluster(Path dir, int nodeManagers) {
        this.dir = dir;
        this.nodeManagers = nodeManagers;
    }

    /** Starts a cluster of {@code nodeManagers} NodeManagers; {@code options} go to jvmreuse-cluster start. */
    public static HadoopCluster start(int nodeManagers, String... options) throws Exception {
        return start(Map.of(), nodeManagers, options);
    }

    /** As {@link #start(int, String...)}, with more environment for jvmreuse-cluster (and so the pools). */
    public static HadoopCluster start(Map<String, String> env, int nodeManagers, String... options) throws Exception {
        Path dir = Files.createTempDirectory(Path.of("/tmp"), "jrt-hadoop-");
        List<String> command = new ArrayList<>(List.of(RUNNER.toString(), "start", "--dir", dir.toString(),
                "--nodemanagers", Integer.toString(nodeManagers)));
        command.addAll(Arrays.asList(options));
        HadoopCluster cluster = new HadoopCluster(dir, nodeManagers);
        // One run of Hadoop's warm-up per slot (and none of the built-in one, as by default), with
        // no shuffle in it (MpiShuffleTest's has one): the tests check behaviour, not speed. Ready
        // once every slot has warmed up, so that the tests' jobs find warm slots
        // (WarmUpWhileServingTest starts the cluster's default way).
        Map<String, String> all = new java.util.HashMap<>(Map.of("JVMREUSE_WARMUP_MAIN_RUNS", "1",
                "JVMREUSE_WARMUP_SHUFFLE_KB", "0", "JVMREUSE_WAIT_WARMUP", "1", "JVMREUSE_WARMUP_PARALLEL", "0",
                "JVMREUSE_DAEMON_OPTS", QUICK_JVM));
        all.putAll(env);
        cluster.started = Pool.exec(command, all, null, 300);
        if (cluster.started.code() != 0) {
            cluster.close();
            throw new IllegalStateException("cluster did not start: " + cluster.started);
        }
        return cluster;
    }

    /** What {@code jvmreuse-cluster start} printed (its messages go to stderr). */
    public Result startOutput() {
        return started;
    }

    /** The cluster's {@code hadoop} command (bin/hadoop in the cluster dir). */
    public Result hadoop(List<String> args, long timeoutSeconds) throws Exception {
        return tool("hadoop", args, timeoutSeconds);
    }

    public Result yarn(String... args) throws Exception {
        return tool("yarn", List.of(args), 120);
    }

    public Result mapred(String... args) throws Exception {
        return tool("mapred", List.of(args), 120);
    }

    /** The value of property {@code name} in the cluster's configuration file {@code file} (e.g. yarn-site.xml). */
    public String property(String file, String name) throws Exception {
        Matcher m = Pattern.compile(Pattern.quote(name) + "</name>\\s*<value>([^<]+)<")
                .matcher(Files.readString(dir.resolve("conf/" + file)));
        if (!m.find()) {
            throw new AssertionError("no " + name + " in " + dir.resolve("conf/" + file));
        }
        return m.group(1);
    }

    /**
     * A finished job's counters as the JobHistoryServer has them (read from the job's .jhist):
     * counter name (not display name) -> total; a name two groups share keeps the last. Waits up
     * to 30 s for the job's history to reach the server.
     */
    public Map<String, Long> historyCounters(String jobId) throws Exception {
        String mapredSite = Files.readString(dir.resolve("conf/mapred-site.xml"));
        Matcher address = Pattern.compile("mapreduce\\.jobhistory\\.webapp\\.address</name>\\s*<value>([^<]+)<")
                .matcher(mapredSite);
        if (!address.find()) {
            throw new IllegalStateException("no JobHistoryServer web address in " + dir.resolve("conf/mapred-site.xml"));
        }
        var uri = java.net.URI.create("http://" + address.group(1) + "/ws/v1/history/mapreduce/jobs/" + jobId + "/counters");
        var client = java.net.http.HttpClient.newHttpClient();
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (true) {
            var response = client.send(java.net.http.HttpRequest.newBuilder(uri).header("Accept", "application/json").build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() == 200) {
                return countersIn(response.body());
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the JobHistoryServer has no counters of " + jobId + ": " + response.statusCode()
                        + " " + response.body());
            }
            Thread.sleep(500);
        }
    }

    private static Map<String, Long> countersIn(String json) {
        Map<String, Long> counters = new java.util.TreeMap<>();
        Matcher counter = Pattern.compile("\"name\"\\s*:\\s*\"([^\"]+)\"\\s*,\\s*\"totalCounterValue\"\\s*:\\s*(\\d+)")
                .matcher(json);
        while (counter.find()) {
            counters.put(counter.group(1), Long.parseLong(counter.group(2)));
        }
        return counters;
    }

    private Result tool(String name, List<String> args, long timeoutSeconds) throws Exception {
        return Pool.exec(toolCommand(name, args), CLIENT_ENV, null, timeoutSeconds);
    }

    /** {@code hadoop jar JAR args...} in the background, its output (both streams) in {@code log}. */
    public Process startJob(Path jar, List<String> args, Path log) throws IOException {
        List<String> all = new ArrayList<>(List.of("jar", jar.toString()));
        all.addAll(args);
        ProcessBuilder client = new ProcessBuilder(toolCommand("hadoop", all)).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        client.environment().putAll(CLIENT_ENV);
        return client.start();
    }

    private List<String> toolCommand(String name, List<String> args) {
        List<String> command = new ArrayList<>(List.of(dir.resolve("bin/" + name).toString()));
        command.addAll(args);
        return command;
    }

    /** {@code hadoop jar JAR args...}, failing the test if the client cannot finish in time. */
    public Job job(Path jar, List<String> args) throws Exception {
        List<String> all = new ArrayList<>(List.of("jar", jar.toString()));
        all.addAll(args);
        return new Job(hadoop(all, 600));
    }

    /** The examples jar's program {@code name} with generic options first, then its arguments. */
    public Job example(String name, List<String> options, String... args) throws Exception {
        List<String> all = new ArrayList<>(List.of(name));
        all.addAll(options);
        all.addAll(Arrays.asList(args));
        return job(EXAMPLES, all);
    }

    /** The pool socket of NodeManager {@code nodeManager} (numbered from 1). */
    public Path socket(int nodeManager) {
        return dir.resolve("pool" + nodeManager + "/pool.sock");
    }

    public String poolStatus(int nodeManager) throws Exception {
        Result r = Pool.exec(List.of(Pool.CLIENT.toString(), "--socket", socket(nodeManager).toString(), "status"),
                Map.of(), null, 30);
        if (r.code() != 0) {
            throw new IllegalStateException("pool " + nodeManager + " status failed: " + r);
        }
        return r.out();
    }

    /**
     * Waits until no pool of the cluster runs anything: a job's client returns while its
     * MRAppMaster still winds down (Hadoop 2.2's AM serves its clients for 5 s after the job ends).
     */
    public void awaitIdlePools() throws Exception {
        long deadline = System.nanoTime() + 60_000_000_000L;
        for (int i = 1; i <= nodeManagers; i++) {
            String status;
            while (!(status = poolStatus(i)).contains(" busy 0,")) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("pool " + i + " still busy after 60 s:\n" + status);
                }
                Thread.sleep(200);
            }
        }
    }

    /** Runs completed by all the cluster's pools (tasks and MRAppMasters). */
    public long pooledRuns() throws Exception {
        return countInStatus(COMPLETED);
    }

    /** MRAppMaster runs completed by all the cluster's pools. */
    public long pooledAmRuns() throws Exception {
        return countInStatus(AM_COMPLETED);
    }

    private long countInStatus(Pattern count) throws Exception {
        long runs = 0;
        for (int i = 1; i <= nodeManagers; i++) {
            Matcher m = count.matcher(poolStatus(i));
            if (!m.find()) {
                throw new IllegalStateException("no " + count + " in pool " + i + " status");
            }
            runs += Long.parseLong(m.group(1));
        }
        return runs;
    }

    /** A fresh directory in the cluster's shared file system (file://). */
    public Path newDir(String name) throws IOException {
        return Files.createDirectories(dir.resolve("data").resolve(name));
    }

    /** The PID of the mpirun that runs all the cluster's pools (NodeManager {@code nodeManager}'s among them). */
    public long mpirunPid(int nodeManager) throws IOException {
        return Long.parseLong(Files.readString(dir.resolve("pools.pid")).trim());
    }

    /**
     * Stops the pool of NodeManager {@code nodeManager} only (its manager and slots): the pools'
     * mpirun goes on for the other NodeManagers' pools. {@code options}: jvmreuse-pool stop's
     * ({@code --now} ends the runs in the pool instead of waiting for them).
     */
    public Result stopPool(int nodeManager, String... options) throws Exception {
        List<String> command = new ArrayList<>(List.of(Pool.REPO.resolve("job-scripts/bin/jvmreuse-pool").toString(), "stop",
                "--socket", socket(nodeManager).toString()));
        command.addAll(Arrays.asList(options));
        return Pool.exec(command, Map.of(), null, 120);
    }

    @Override
    public void close() throws Exception {
        Result stopped = Pool.exec(List.of(RUNNER.toString(), "stop", "--dir", dir.toString()), Map.of(), null, 180);
        if (stopped.code() != 0) {
            throw new IllegalStateException("cluster did not stop cleanly: " + stopped);
        }
        List<Long> left = processesUnder(dir);
        if (!left.isEmpty()) {
            throw new IllegalStateException("processes left after stop: " + left);
        }
        if (System.getenv("JVMREUSE_IT_KEEP") != null) {
            System.err.println("JVMREUSE_IT_KEEP: the cluster's files are kept in " + dir);
            return;
        }
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        }
    }

    /** Live processes whose command line mentions {@code dir}. */
    static List<Long> processesUnder(Path dir) {
        List<Long> found = new ArrayList<>();
        ProcessHandle.allProcesses().forEach(p -> {
            if (p.pid() != ProcessHandle.current().pid() && Pool.running(p.pid())) {
                try {
                    String cmdline = Files.readString(Path.of("/proc/" + p.pid() + "/cmdline")).replace('\0', ' ');
                    if (cmdline.contains(dir.toString())) {
                        found.add(p.pid());
                    }
                } catch (IOException gone) {
                    // exited meanwhile
                }
            }
        });
        return found;
    }
}
