package org.jvmreuse.it.hosts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.jvmreuse.it.Pool;
import org.jvmreuse.it.Pool.Result;
import org.jvmreuse.it.slurm.SlurmTestbed;

/**
 * Issue 29: the PageRank batch job script (job-scripts/sbatch/jvmreuse-hadoop.sbatch) with sbatch
 * -N3 on the Slurm testbed over the multi-host testbed's hosts (jvmreuse-slurm-testbed start
 * --hosts): ResourceManager on n1, one NodeManager per host listening on that host's address, one
 * pool per host (ranks of one mpirun across the hosts) that serves task runs; the result matches
 * the in-memory reference (HpcJobScriptTest runs the script the stock way). The reducers use the MPI
 * shuffle: its counters, read as a user does ({@code mapred job -status} in a post hook, while the
 * cluster is up), show bytes between hosts only as MPI messages, and lent files within a host.
 * TeraSort across the hosts with the MPI shuffle and with HTTP writes the same bytes. Faults: a
 * host's pool killed, and (last, as it leaves that host down) a whole host lost, mid-job.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SbatchAcrossHostsTest {
    private static final Path HOSTS = Pool.REPO.resolve("job-scripts/testbed/jvmreuse-hosts");
    private static final Path SBATCH = Pool.REPO.resolve("job-scripts/sbatch/jvmreuse-hadoop.sbatch");
    private static final Path TERASORT = Pool.REPO.resolve("job-scripts/sbatch/terasort-compare.sbatch");
    private static final Path PJSUB = Pool.REPO.resolve("job-scripts/pjsub/jvmreuse-hadoop.pjsub");
    private static final List<String> NODES = List.of("n1", "n2", "n3");
    private static SlurmTestbed testbed;
    private static final String MPI_SHUFFLE = "org.jvmreuse.shuffle.reduce.MpiShuffle";
    private static final String GROUP = "org.jvmreuse.shuffle.MpiShuffle";
    /** A pool JVM, manager or slot: the launcher's agent is in its command line. */
    private static final Pattern POOL_JVM = Pattern.compile(".*-javaagent:\\S*pool-manager-\\S*-launcher\\.jar.*");
    /** The pool client of a MapReduce task's container. */
    /** An application master, in a slot (its client) or a JVM of its own. */
    private static final Pattern APP_MASTER = Pattern.compile(".*org\\.apache\\.hadoop\\.mapreduce\\.v2\\.app\\.MRAppMaster.*");
    private static final Pattern TASK_CLIENT = Pattern.compile("\\S*jvmreuse --socket=\\S+ run .*--kind=task .*org\\.apache\\.hadoop\\.mapred\\.YarnChild .*");
    /** A post hook (cluster up, env.sh sourced): each job of the workload's, as {@code mapred job -status} shows it. */
    private static final String JOB_STATUS_HOOK = """
            #!/bin/bash
            set -euo pipefail
            grep -o 'job_[0-9]*_[0-9]*' "$JVMREUSE_OUTPUT_DIR/logs/workload.log" | sort -u | while read -r job; do
                mapred job -status "$job" >"$JVMREUSE_OUTPUT_DIR/status-$job.txt" </dev/null
            done
            """;

    @BeforeAll
    static void startTestbeds() throws Exception {
        Result hosts = Pool.exec(List.of(HOSTS.toString(), "start", "--hosts", "3"), Map.of(), null, 60);
        assertEquals(0, hosts.code(), hosts.toString());
        // Outside /tmp: every host has a /tmp of its own, and the job's files must be shared.
        testbed = SlurmTestbed.start(Path.of("/var/tmp"), 3, "--hosts", "--memory-mb", "8192");
    }

    @AfterAll
    static void stopTestbeds() throws Exception {
        try {
            if (testbed != null) {
                testbed.close();
                Pool.exec(List.of("rm", "-rf", testbed.dir.toString()), Map.of(), null, 60);
            }
        } finally {
            Pool.exec(List.of(HOSTS.toString(), "stop"), Map.of(), null, 60);
        }
    }

    /**
     * Hadoop 3.5.0 in the same batch job across the hosts (JVMREUSE_HADOOP_VERSION, each version from
     * its own jars): the job says which Hadoop runs and names no part its pools leave stock, every host's pool
     * runs tasks of the job (3.x derives a task's heap from its container: the slot heap must hold it,
     * 0.8 x 512 MB), no task goes stock for its heap, and PageRank matches the reference.
     */
    @Test
    void hadoop3PageRankWithAPoolOnEveryHostMatchesTheReference() throws Exception {
        long id = run(Map.of("JVMREUSE_HADOOP_VERSION", "3.5.0", "JVMREUSE_POOL", "1", "JVMREUSE_SLOT_HEAP", "512m",
                "JVMREUSE_PAGERANK_NODES", "1000", "JVMREUSE_ITERATIONS", "1"));
        Path dir = testbed.jobs.resolve("jvmreuse-" + id);
        String out = testbed.outputText(id);
        assertTrue(out.contains("): 3 nodes (n1 n2 n3), master n1 (n1), mode batch, workload pagerank, Hadoop 3.5.0"), out);
        assertFalse(out.contains(" with pools: "), "a part its pools leave stock on 3.5.0: " + out);
        assertFalse(out.contains("above the slot heap"), out);
        assertEachHostsPoolServed(dir);
        for (int i = 1; i <= 3; i++) {
            String node = "n" + i;
            String nm = read(dir.resolve("logs/nodes/" + node + "/logs/nodemanager.log"));
            assertTrue(taskRuns(dir, node) >= 1, "the pool on " + node + " served no task run");
            assertFalse(nm.contains("is above the slot heap"), node + ": a task went stock for its heap");
        }
    }

    /**
     * The PJM job script across the hosts, with PJM's environment on top of the Slurm allocation (no
     * PJM can be installed here; Fujitsu's mpiexec is Open MPI's mpirun, which starts its daemons on
     * the other hosts with srun, as it would through PJM's own agent): the node names come from one
     * rank per node, the pools and the NodeManager agents are ranks of mpiexec launches, each on its
     * own host and address, every pool serves, and K-means matches the reference.
     */
    @Test
    void pjmScriptAcrossTheHostsPutsAPoolAndANodeManagerOnEachHost() throws Exception {
        Path workdir = testbed.jobs.resolve("pjm-work");
        String script = testbed.pjmOnSlurm(PJSUB, workdir, 3);
        Map<String, String> env = new LinkedHashMap<>(SlurmTestbed.SMALL_JOB);
        env.putAll(Map.of("JVMREUSE_POOL", "1", "JVMREUSE_WORKLOAD", "kmeans", "JVMREUSE_KMEANS_POINTS", "2000",
                "JVMREUSE_KMEANS_K", "3", "JVMREUSE_KMEANS_DIMENSIONS", "2", "JVMREUSE_ITERATIONS", "1"));
        long id = testbed.submit(script, "-N", "3", export(env));
        testbed.awaitGone(id, 300_000);
        String out = testbed.outputText(id);
        assertEquals("COMPLETED", testbed.state(id), out);
        assertTrue(out.contains("(pjm): 3 nodes (n1 n2 n3), master n1"), out);
        assertTrue(out.contains("NodeManagers listen on (JVMREUSE_BIND_ADDR=auto): n1 10.77.0.1,n2 10.77.0.2,n3 10.77.0.3"), out);
        assertTrue(out.contains("started the NodeManager agents as one rank per node: mpiexec"), out);
        assertTrue(out.contains("verify-kmeans passed"), out);
        Path dir = workdir.resolve("jvmreuse-" + (id + 7000));
        assertEachHostRanItsNodeManager(dir);
        assertEachHostsPoolServed(dir);
        assertNoJobProcesses(id);
    }

    /**
     * terasort-compare.sbatch -N3 with a pool on every host: TeraSort with HTTP, then with the MPI
     * shuffle, each validated with the same teravalidate checksum and reported in the job's
     * comparison (timings/terasort-compare.csv: job times from the JobHistoryServer, the MPI
     * shuffle's map counts); the two outputs are the same bytes, and the MPI one's map outputs
     * came between hosts as MPI messages (its counters, as the job client printed them) from the
     * Shuffle Managers of at least two hosts.
     */
    @Test
    void teraSortAcrossTheHostsWritesTheSameBytesWithTheMpiShuffleAsWithHttp() throws Exception {
        long id = submit(TERASORT, Map.of("JVMREUSE_POOL", "1", "JVMREUSE_TERASORT_ROWS", "30000"));
        Path data = testbed.jobs.resolve("jvmreuse-" + id + "/data");
        List<Path> http = parts(data.resolve("tera-out-http"));
        List<Path> mpi = parts(data.resolve("tera-out-mpi"));
        assertEquals(3, http.size(), "one part per reducer (one per host): " + http);
        assertEquals(http.stream().map(p -> p.getFileName().toString()).toList(),
                mpi.stream().map(p -> p.getFileName().toString()).toList());
        long bytes = 0;
        for (int i = 0; i < http.size(); i++) {
            assertEquals(-1L, Files.mismatch(http.get(i), mpi.get(i)), http.get(i) + " and " + mpi.get(i) + " differ");
            bytes += Files.size(http.get(i));
        }
        assertEquals(30000L * 100, bytes, "TeraSort's 100-byte rows, all of them");
        String log = read(testbed.jobs.resolve("jvmreuse-" + id + "/logs/terasort-mpi.log"));
        System.out.println("SbatchAcrossHostsTest: TeraSort MPI shuffle counters: " + log.lines()
                .filter(l -> l.matches("\\s+(MPI|HTTP|LENT|DIRECT)_\\w+=\\d+")).map(String::trim).toList());
        assertTrue(clientCounter(log, "MPI_MESSAGE_BYTES_OTHER_HOST") > 0, "no map output came between hosts over MPI: " + log);
        assertEquals(0, clientCounter(log, "LENT_FILE_BYTES_OTHER_HOST"), log);
        assertEquals(0, clientCounter(log, "DIRECT_COPY_BYTES_OTHER_HOST"), log);

        Path dir = testbed.jobs.resolve("jvmreuse-" + id);
        Map<String, String[]> rows = new LinkedHashMap<>();
        for (String line : Files.readAllLines(dir.resolve("timings/terasort-compare.csv"))) {
            String[] f = line.split(",", -1);
            rows.put(f[0], f);
        }
        assertEquals(List.of("variant", "http", "mpi"), List.copyOf(rows.keySet()));
        String[] byHttp = rows.get("http");
        String[] byMpi = rows.get("mpi");
        String report = String.join(",", byHttp) + " / " + String.join(",", byMpi);
        assertEquals("ok", byHttp[4], report);
        assertEquals("ok", byMpi[4], report);
        assertTrue(byHttp[5].matches("[0-9a-f]+") && byHttp[5].equals(byMpi[5]), "teravalidate checksums: " + report);
        assertTrue(byHttp[3].matches("[1-9][0-9]*") && byMpi[3].matches("[1-9][0-9]*"), "job times: " + report);
        assertEquals("", byHttp[6], "the stock shuffle has no MPI counters: " + report);
        assertTrue(Integer.parseInt(byMpi[6]) >= 3, "maps fetched over MPI: " + report);
        assertEquals("0", byMpi[7], "maps fetched over HTTP by the MPI shuffle: " + report);
        assertTrue(read(dir.resolve("terasort-compare.txt")).contains("mpi "), "terasort-compare.txt");
        long serving = NODES.stream().filter(n -> poolLogs(dir.resolve("logs/nodes/" + n + "/pool-logs"))
                .contains("MPI shuffle: serving")).count();
        assertTrue(serving >= 2, "the Shuffle Managers of " + serving + " host(s) served (maps ran on every host)");
    }

    private static String poolLogs(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(SbatchAcrossHostsTest::read).collect(Collectors.joining());
        } catch (IOException e) {
            return "";
        }
    }

    /**
     * Faults across hosts: n3's pool (its manager and slots, ranks of the one launch) SIGKILLed
     * while a task of the job's runs in it. That task's client ends (no hung container) and YARN
     * runs the task again, as after any lost task JVM; n3's later tasks find no pool and start in
     * JVMs of their own; reducers get n3's map outputs over HTTP; the other hosts' pools serve on.
     * The job ends with the reference result, and shows what the same job shows without the kill:
     * a pool per host that served, map outputs between hosts as MPI messages (the MPI shuffle's
     * counters, from a post hook's {@code mapred job -status}), every pool stopped, no socket dir left.
     */
    @Test
    void aHostsPoolKilledMidJobLeavesTheJobToEndWithTheReferenceResult() throws Exception {
        Path hook = testbed.jobs.resolve("job-status-hook.sh");
        Files.writeString(hook, JOB_STATUS_HOOK);
        assertTrue(hook.toFile().setExecutable(true));
        long id = startPageRank(Map.of("JVMREUSE_POOL", "1", "JVMREUSE_PAGERANK_NODES", "2000", "JVMREUSE_ITERATIONS", "3",
                "JVMREUSE_MAPRED_SITE_EXTRA", "mapreduce.job.reduce.shuffle.consumer.plugin.class=" + MPI_SHUFFLE
                        + " jvmreuse.shuffle.mode=concurrent",
                "JVMREUSE_POST_HOOK", hook.toString()));
        Path dir = testbed.jobs.resolve("jvmreuse-" + id);
        awaitTaskInPool(id, dir, List.of("n3"), false);
        List<Long> clients = processesIn("n3", TASK_CLIENT);
        List<Long> pool = processesIn("n3", POOL_JVM);
        assertTrue(pool.size() >= 2, "n3's pool manager and slots: " + SlurmTestbed.describe(pool));
        Map<String, Long> before = Map.of("n1", taskRuns(dir, "n1"), "n2", taskRuns(dir, "n2"));
        Result killed = Pool.exec(Stream.concat(Stream.of("kill", "-KILL"), pool.stream().map(String::valueOf)).toList(),
                Map.of(), null, 10);
        assertEquals(0, killed.code(), killed.toString());
        System.out.println("SbatchAcrossHostsTest: killed n3's pool (" + pool.size() + " JVMs) with " + clients.size()
                + " task client(s) in it, after n1/n2 ran " + before + " tasks");
        for (long client : clients) {
            long until = System.currentTimeMillis() + 30_000;
            while (Pool.running(client) && System.currentTimeMillis() < until) {
                Thread.sleep(100);
            }
            assertFalse(Pool.running(client), "the client of a task in n3's killed pool hangs:" + SlurmTestbed.describe(List.of(client)));
        }

        finish(id);
        assertPageRankVerified(id);
        // What the same job shows without the kill, the other hosts' and n3's until its pool died.
        assertTrue(testbed.outputText(id).contains("starting the pools (3 x 2 slots, heap"), "one pool per host");
        assertMpiShuffleCounters(dir);
        assertEachHostsPoolServed(dir);
        for (String node : NODES) {
            assertTrue(read(dir.resolve("logs/nodes/" + node + "/logs/nodemanager.log")).contains("task handed to the JVM pool at"), node);
        }
        // On a host other than the master's the agent stops its pool and removes its socket dir.
        assertTrue(read(dir.resolve("run/nodes/n2/logs/agent.log")).contains("stopping the pool at"), "n2");
        assertNoSocketDirs(id);
        System.out.println("SbatchAcrossHostsTest: n3's task clients that lost their run with the pool: "
                + grepCount(dir.resolve("logs/nodes/n3/container-logs"), "lost the connection to the pool during the run"));
        for (String node : List.of("n1", "n2")) {
            long after = taskRuns(dir, node);
            System.out.println("SbatchAcrossHostsTest: " + node + "'s pool ran " + after + " tasks in all");
            assertTrue(after > before.get(node), node + "'s pool ran no task after n3's was killed");
        }
    }

    /**
     * Faults across hosts: a host lost whole while a task of the job runs in its pool (its link
     * cut and every process on it SIGKILLed: NodeManager, pool, slurmd, MPI daemon). The job was
     * submitted with {@code sbatch --no-kill}, as a job that should outlive a node must be, and
     * with Hadoop's timeouts for a lost node shortened (defaults: 10 minutes before the
     * ResourceManager declares a NodeManager lost, 45 connect timeouts of 20 s for a client).
     * The host lost is n3 or n2, whichever runs no application master then: Hadoop 2.2's job
     * client has no RPC timeout, and a call in flight to an AM whose host went silent waits for
     * TCP to give up (about 15 minutes), pool or not. YARN runs the lost host's work again on the
     * others, whose pools serve on (Open MPI 4 notices nothing until Slurm declares the host
     * down, SlurmdTimeout later), and the job ends with the reference result; its batch script
     * ends with 0 and stops everything but what was on the lost host. Runs last: that host stays
     * down.
     */
    @Test
    @Order(Integer.MAX_VALUE)
    void aWholeHostLostMidJobLeavesTheJobToEndWithTheReferenceResult() throws Exception {
        // four iterations: a task runs in a pool of a host without an application master in a
        // window that can be short, a fast machine's tasks last little more than a second
        long id = startPageRank(Map.of("JVMREUSE_POOL", "1", "JVMREUSE_PAGERANK_NODES", "2000", "JVMREUSE_ITERATIONS", "4",
                "JVMREUSE_YARN_SITE_EXTRA", "yarn.nm.liveness-monitor.expiry-interval-ms=15000"
                        + " yarn.resourcemanager.nm.liveness-monitor.interval-ms=1000"
                        + " yarn.client.nodemanager-connect.max-wait-ms=10000 yarn.client.nodemanager-connect.retry-interval-ms=1000",
                "JVMREUSE_CORE_SITE_EXTRA", "ipc.client.connect.timeout=3000 ipc.client.connect.max.retries.on.timeouts=2"
                        + " ipc.client.connect.max.retries=2",
                "JVMREUSE_MAPRED_SITE_EXTRA", "mapreduce.job.reduce.shuffle.consumer.plugin.class=" + MPI_SHUFFLE
                        + " jvmreuse.shuffle.mode=concurrent mapreduce.reduce.shuffle.connect.timeout=5000"
                        + " mapreduce.reduce.shuffle.read.timeout=10000"), "--no-kill");
        Path dir = testbed.jobs.resolve("jvmreuse-" + id);
        String lost = awaitTaskInPool(id, dir, List.of("n3", "n2"), true);
        List<String> others = NODES.stream().filter(n -> !n.equals(lost)).toList();
        Map<String, Long> before = new LinkedHashMap<>();
        for (String node : others) {
            before.put(node, taskRuns(dir, node));
        }
        Result crashed = Pool.exec(List.of(HOSTS.toString(), "crash", lost), Map.of(), null, 30);
        assertEquals(0, crashed.code(), crashed.toString());
        long crashedAt = System.currentTimeMillis();
        System.out.println("SbatchAcrossHostsTest: " + crashed.out().trim() + ", after the others ran " + before + " tasks");

        // Slurm keeps the job COMPLETING until it declares n3 down: the batch script's end is what counts.
        long deadline = System.currentTimeMillis() + 300_000;
        while (!testbed.outputText(id).contains("stopped everything") && System.currentTimeMillis() < deadline) {
            Thread.sleep(500);
        }
        String out = testbed.outputText(id);
        System.out.println("SbatchAcrossHostsTest: the job ended " + (System.currentTimeMillis() - crashedAt) / 1000
                + " s after " + lost + " was lost");
        assertTrue(out.contains("the workload pagerank succeeded"), out);
        assertTrue(out.contains("stopped everything") && out.contains("exit status 0"), out);
        assertPageRankVerified(id);
        for (String node : others) {
            long after = taskRuns(dir, node);
            System.out.println("SbatchAcrossHostsTest: " + node + "'s pool ran " + after + " tasks in all");
            assertTrue(after > before.get(node), node + "'s pool ran no task after " + lost + " was lost");
        }
        long until = System.currentTimeMillis() + 60_000;
        while (testbed.state(id).equals("RUNNING") && System.currentTimeMillis() < until) {
            Thread.sleep(200);
        }
        assertTrue(List.of("COMPLETING", "COMPLETED").contains(testbed.state(id)), testbed.showJob(id));
        assertEquals("0:0", testbed.exitCode(id), testbed.showJob(id));
    }

    /**
     * Waits until the pool of one of {@code hosts} (the first, if several) has finished a task of
     * job {@code id} and runs another, and, if {@code withoutAppMaster}, no application master runs
     * on that host (in a slot or a JVM of its own); returns that host.
     */
    private static String awaitTaskInPool(long id, Path dir, List<String> hosts, boolean withoutAppMaster) throws Exception {
        long deadline = System.currentTimeMillis() + 240_000;
        while (true) {
            for (String node : hosts) {
                if (taskRuns(dir, node) > 0) {
                    Collection<String> running = commandLinesIn(node).values();
                    if (running.stream().anyMatch(c -> TASK_CLIENT.matcher(c).matches())
                            && !(withoutAppMaster && running.stream().anyMatch(c -> APP_MASTER.matcher(c).matches()))) {
                        return node;
                    }
                }
            }
            assertTrue(System.currentTimeMillis() < deadline && testbed.listed(id), "no pool of " + hosts
                    + " ran a task while another was in it" + (withoutAppMaster ? " and no application master on its host" : "")
                    + ": " + testbed.outputText(id));
            Thread.sleep(100);
        }
    }

    /** The task runs a host's pool has finished, from its slots' logs (where they are written while the job runs). */
    private static long taskRuns(Path jobDir, String node) throws IOException {
        Path logs = jobDir.resolve("run/nodes/" + node + "/pool-logs");
        if (!Files.isDirectory(logs)) {
            return 0;
        }
        return Pattern.compile(" run \\d+ \\(task\\)").matcher(slotLogs(logs)).results().count();
    }

    /** How many lines of the files under {@code dir} contain {@code text}. */
    private static long grepCount(Path dir, String text) throws IOException {
        if (!Files.isDirectory(dir)) {
            return 0;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(f -> read(f).lines().filter(l -> l.contains(text)).count()).sum();
        }
    }

    /** The processes running in {@code host} whose command line matches {@code commandLine}. */
    private static List<Long> processesIn(String host, Pattern commandLine) throws Exception {
        return commandLinesIn(host).entrySet().stream().filter(p -> commandLine.matcher(p.getValue()).matches())
                .map(Map.Entry::getKey).toList();
    }

    /** The command line of each process running in {@code host}, by pid. */
    private static Map<Long, String> commandLinesIn(String host) throws Exception {
        Result pids = Pool.exec(List.of(HOSTS.toString(), "pids", host), Map.of(), null, 10);
        assertEquals(0, pids.code(), pids.toString());
        Map<Long, String> commandLines = new LinkedHashMap<>();
        pids.out().lines().map(Long::parseLong).forEach(pid -> commandLines.put(pid, SlurmTestbed.commandLine(pid)));
        return commandLines;
    }

    /** The output files of a MapReduce job's output directory, by name. */
    private static List<Path> parts(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().startsWith("part-")).sorted().toList();
        }
    }

    /** A counter as the job client printed it at the job's end ({@code NAME=VALUE}); a missing one fails. */
    private static long clientCounter(String log, String name) {
        List<Long> values = log.lines().map(String::trim).filter(l -> l.startsWith(name + "="))
                .map(l -> Long.parseLong(l.substring(name.length() + 1))).toList();
        assertEquals(1, values.size(), "counter " + name + " in " + log);
        return values.get(0);
    }

    /**
     * Submits the PageRank job script on all three hosts with {@code more} settings and checks what
     * both modes share (below) and the verified result (the script's check and our own). Returns the
     * job id.
     */
    private static long run(Map<String, String> more) throws Exception {
        long id = startPageRank(more);
        finish(id);
        assertPageRankVerified(id);
        return id;
    }

    private static long startPageRank(Map<String, String> more, String... sbatchOptions) throws Exception {
        Map<String, String> env = new LinkedHashMap<>(more);
        env.put("JVMREUSE_WORKLOAD", "pagerank");
        return start(SBATCH, env, sbatchOptions);
    }

    private static void assertPageRankVerified(long id) throws Exception {
        String out = testbed.outputText(id);
        assertTrue(out.contains("verify-pagerank passed"), out);
        Path dir = testbed.jobs.resolve("jvmreuse-" + id);
        Result verify = Pool.workloads("verify-pagerank", "--graph", dir.resolve("data/graph").toString(),
                "--output", dir.resolve("data/pagerank").toString());
        assertEquals(0, verify.code(), "verify-pagerank: " + verify);
    }

    /** Submits {@code script} on all three hosts with {@code more} settings, waits for its end and checks it (below). */
    private static long submit(Path script, Map<String, String> more) throws Exception {
        long id = start(script, more);
        finish(id);
        return id;
    }

    /** Submits {@code script} on all three hosts with {@code more} settings and {@code sbatchOptions}; returns the job id. */
    private static long start(Path script, Map<String, String> more, String... sbatchOptions) throws Exception {
        Map<String, String> env = new LinkedHashMap<>(SlurmTestbed.SMALL_JOB);
        env.putAll(more);
        List<String> options = new java.util.ArrayList<>(List.of("-N", "3"));
        options.addAll(List.of(sbatchOptions));
        options.add(export(env));
        return testbed.submit(Files.readString(script), options.toArray(String[]::new));
    }

    /**
     * Waits for job {@code id} to end and checks what every job shares: success, where everything
     * ran, which address each NodeManager listened on, and that nothing of the job is left.
     */
    private static void finish(long id) throws Exception {
        testbed.awaitGone(id, 300_000);
        String out = testbed.outputText(id);
        assertEquals("COMPLETED", testbed.state(id), out);
        assertEquals("0:0", testbed.exitCode(id), out);
        assertTrue(out.contains("3 nodes (n1 n2 n3), master n1 (n1)"), out);
        assertTrue(out.contains("NodeManagers listen on (JVMREUSE_BIND_ADDR=auto): n1 10.77.0.1,n2 10.77.0.2,n3 10.77.0.3"), out);
        assertTrue(out.contains("stopped everything"), out);
        Path dir = testbed.jobs.resolve("jvmreuse-" + id);

        // The ResourceManager on n1's address; each NodeManager on its own host and address.
        assertTrue(read(dir.resolve("run/master/conf/yarn-site.xml")).contains("<value>n1:"), "RM address");
        assertEachHostRanItsNodeManager(dir);
        String rm = read(dir.resolve("logs/master/resourcemanager.log"));
        for (int i = 1; i <= 3; i++) {
            String node = "n" + i;
            assertTrue(Pattern.compile("NodeManager from node " + node + "\\(cmPort: \\d+ .* assigned nodeId " + node + ":").matcher(rm).find(),
                    node + " did not register as itself");
            assertTrue(read(dir.resolve("run/nodes/" + node + "/logs/agent.log")).contains("agent on host " + node + " "), node);
        }
        assertNoJobProcesses(id);
    }

    /** Host nK ran the job's NodeManager, started on its own address 10.77.0.K. */
    private static void assertEachHostRanItsNodeManager(Path dir) {
        for (int i = 1; i <= 3; i++) {
            String node = "n" + i;
            String addr = "10.77.0." + i;
            assertEquals(node, read(dir.resolve("run/nodes/" + node + "/pids/nodemanager.host")).trim());
            String nm = read(dir.resolve("logs/nodes/" + node + "/logs/nodemanager.log"));
            assertTrue(nm.contains("ContainerManager started at /" + addr + ":"), node + " NodeManager not on " + addr);
        }
    }

    /** Host nK ran pool K-1, which served (its pool.state), as its manager's log says. */
    private static void assertEachHostsPoolServed(Path dir) {
        for (int i = 1; i <= 3; i++) {
            String node = "n" + i;
            assertTrue(read(dir.resolve("run/nodes/" + node + "/pool.state")).startsWith("serving"), "pool of " + node + " did not serve");
            String manager = read(dir.resolve("logs/nodes/" + node + "/pool-logs/manager-" + (i - 1) + ".log"));
            assertTrue(manager.contains(" on " + node + ", pool " + (i - 1)), "pool " + (i - 1) + " is not on " + node + ": " + manager);
        }
    }

    /** sbatch's --export for {@code env} on top of the submitter's environment. */
    private static String export(Map<String, String> env) {
        return "--export=ALL," + env.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(","));
    }

    /**
     * The MPI shuffle counters of every PageRank job with reducers, from {@code mapred job -status}:
     * between hosts no map output came in a lent file or a direct copy, in any job; the bytes
     * (MPI, per way, and HTTP: a reducer that found no free slot runs in a JVM of its own, whose
     * map outputs all come over HTTP) add up to the job's shuffle bytes; and over the jobs, map
     * outputs came between hosts as MPI messages and within a host in lent files (the default on
     * this kernel), none as MPI messages.
     */
    private static void assertMpiShuffleCounters(Path dir) throws IOException {
        List<Path> statuses;
        try (Stream<Path> files = Files.list(dir)) {
            statuses = files.filter(p -> p.getFileName().toString().matches("status-job_\\d+_\\d+\\.txt")).sorted().toList();
        }
        Map<String, Long> sum = new LinkedHashMap<>();
        int shuffled = 0;
        for (Path status : statuses) {
            String text = read(status);
            if (text.contains("\nNumber of reduces: 0\n")) {
                continue; // the map-only first step
            }
            shuffled++;
            Map<String, Long> c = counters(text, GROUP);
            String job = status.getFileName() + ": " + c;
            System.out.println("SbatchAcrossHostsTest: " + job);
            for (String way : List.of("LENT_FILE", "DIRECT_COPY")) {
                assertEquals(0L, c.get(way + "_SEGMENTS_OTHER_HOST"), job);
                assertEquals(0L, c.get(way + "_BYTES_OTHER_HOST"), job);
            }
            long segments = 0;
            long bytes = 0;
            for (String way : List.of("LENT_FILE", "DIRECT_COPY", "MPI_MESSAGE")) {
                for (String where : List.of("SAME_HOST", "OTHER_HOST")) {
                    segments += c.get(way + "_SEGMENTS_" + where);
                    bytes += c.get(way + "_BYTES_" + where);
                }
            }
            assertEquals(c.get("MPI_MAPS"), segments, job);
            assertEquals(c.get("MPI_BYTES"), bytes, job);
            assertEquals(counters(text, "Map-Reduce Framework").get("Reduce shuffle bytes"),
                    c.get("MPI_BYTES") + c.get("HTTP_BYTES"), job);
            c.forEach((name, value) -> sum.merge(name, value, Long::sum));
        }
        assertTrue(shuffled >= 2, "mapred job -status of every PageRank job with reducers: " + statuses);
        System.out.println("SbatchAcrossHostsTest: MPI shuffle counters of " + shuffled + " jobs, summed: " + sum);
        assertTrue(sum.get("MPI_MESSAGE_BYTES_OTHER_HOST") > 0, "map outputs came between hosts as MPI messages: " + sum);
        assertTrue(sum.get("LENT_FILE_BYTES_SAME_HOST") > 0, "same-host map outputs came in lent files: " + sum);
        assertEquals(0L, sum.get("MPI_MESSAGE_SEGMENTS_SAME_HOST"), "no same-host map output came as MPI messages: " + sum);
    }

    /** The counters of {@code group} in {@code mapred job -status} output (every one must be there: a missing one fails). */
    private static Map<String, Long> counters(String status, String group) {
        Map<String, Long> counters = new java.util.HashMap<>() {
            @Override
            public Long get(Object name) {
                Long value = super.get(name);
                assertTrue(value != null, "no counter " + name + " in " + group + ": " + status);
                return value;
            }
        };
        boolean in = false;
        for (String line : status.lines().toList()) {
            if (line.startsWith("\t\t") && in) {
                int eq = line.lastIndexOf('=');
                counters.put(line.substring(2, eq), Long.parseLong(line.substring(eq + 1).trim()));
            } else {
                in = line.equals("\t" + group);
            }
        }
        return counters;
    }

    /** The job's socket dir, on each host's own /tmp, is gone everywhere. */
    private static void assertNoSocketDirs(long id) throws Exception {
        for (String node : NODES) {
            Result ls = Pool.exec(List.of(HOSTS.toString(), "exec", node, "ls", "/tmp"), Map.of(), null, 30);
            assertEquals(0, ls.code(), ls.toString());
            assertFalse(ls.out().lines().anyMatch(l -> l.matches("jvmreuse-\\d+-" + id)), node + " kept its socket dir: " + ls.out());
        }
    }

    /** No live process of the job (zombies excluded) within a few seconds of its end. */
    private static void assertNoJobProcesses(long id) throws InterruptedException {
        List<Long> left = testbed.jobProcessesAfter(id, 15_000);
        assertTrue(left.isEmpty(), "processes of job " + id + " left:" + SlurmTestbed.describe(left));
    }

    private static String slotLogs(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().startsWith("slot-")).map(SbatchAcrossHostsTest::read)
                    .collect(Collectors.joining());
        }
    }

    private static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file) : "";
        } catch (IOException e) {
            return "";
        }
    }
}
