package org.jvmreuse.it.slurm;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jvmreuse.it.Pool;
import org.jvmreuse.it.Pool.Result;
import org.jvmreuse.it.hadoop.HadoopCluster;

/**
 * A real Slurm cluster on this machine for a test (private munged, slurmctld and N slurmd
 * "nodes" n1..nN), brought up and torn down with job-scripts/testbed/jvmreuse-slurm-testbed in a
 * fresh directory; jobs are submitted with the real sbatch and watched with squeue and scontrol
 * (no accounting, so no sacct). Closing it stops the testbed and fails if any process of the
 * testbed or its jobs is left.
 */
public final class SlurmTestbed implements AutoCloseable {
    /**
     * Job script settings small enough for a 2-vCPU machine: 2 slots per node, small heaps (slots
     * serve cold, the default), daemons and job clients without C2 (HadoopCluster.QUICK_JVM).
     */
    public static final Map<String, String> SMALL_JOB = Map.of(
            "JVMREUSE_HOME", Pool.REPO.toString(),
            "JVMREUSE_SLOTS", "2",
            "JVMREUSE_SLOT_HEAP", "384m",
            "JVMREUSE_DAEMON_HEAP", "512m",
            "JVMREUSE_STOP_TIMEOUT", "5",
            "JVMREUSE_DAEMON_OPTS", HadoopCluster.QUICK_JVM,
            "HADOOP_CLIENT_OPTS", HadoopCluster.QUICK_JVM);

    static final Path CLI = Pool.REPO.resolve("job-scripts/testbed/jvmreuse-slurm-testbed");
    private static final Pattern JOB_STATE = Pattern.compile("\\bJobState=(\\S+)");
    private static final Pattern EXIT_CODE = Pattern.compile("\\bExitCode=(\\S+)");

    public final Path dir;
    public final Path conf;
    public final Path jobs;
    public final int nodes;
    /** The testbed's ClusterName: job processes carry it as SLURM_CLUSTER_NAME. */
    public final String cluster;
    private final AtomicInteger scripts = new AtomicInteger();

    private SlurmTestbed(Path dir, int nodes, String cluster) {
        this.dir = dir;
        this.conf = dir.resolve("etc/slurm.conf");
        this.jobs = dir.resolve("jobs");
        this.nodes = nodes;
        this.cluster = cluster;
    }

    /**
     * Starts a testbed of {@code nodes} nodes; {@code options} go to jvmreuse-slurm-testbed start.
     * Fails (with the launcher's output, which names what is missing or which daemon log to
     * read) if Slurm cannot be installed or started.
     */
    public static SlurmTestbed start(int nodes, String... options) throws Exception {
        return start(Path.of("/tmp"), nodes, options);
    }

    /**
     * As {@link #start(int, String...)}, in a fresh directory under {@code parent}: outside /tmp for
     * {@code --hosts}, whose hosts each have a /tmp of their own.
     */
    public static SlurmTestbed start(Path parent, int nodes, String... options) throws Exception {
        Path dir = Files.createTempDirectory(parent, "jrt-slurm-");
        List<String> command = new ArrayList<>(List.of(CLI.toString(), "start", "--dir", dir.toString(),
                "--nodes", Integer.toString(nodes)));
        command.addAll(Arrays.asList(options));
        // A first start may install slurm-wlm and munge with apt-get.
        Result started = Pool.exec(command, Map.of(), null, 600);
        if (started.code() != 0) {
            Pool.exec(List.of(CLI.toString(), "stop", "--dir", dir.toString()), Map.of(), null, 120);
            if (!Files.exists(dir.resolve("log"))) {
                Files.deleteIfExists(dir); // nothing to read in it
            }
            throw new IllegalStateException("the Slurm testbed did not start (logs, if any, in " + dir + "/log): " + started);
        }
        if (!started.out().contains("export SLURM_CONF=" + dir.resolve("etc/slurm.conf"))) {
            throw new IllegalStateException("start did not print the client environment: " + started);
        }
        Matcher m = Pattern.compile("(?m)^TESTBED_CLUSTER=(\\S+)$").matcher(Files.readString(dir.resolve("testbed.env")));
        if (!m.find()) {
            throw new IllegalStateException("no TESTBED_CLUSTER in " + dir.resolve("testbed.env"));
        }
        SlurmTestbed testbed = new SlurmTestbed(dir, nodes, m.group(1));
        Files.createDirectories(testbed.jobs);
        return testbed;
    }

    /** A Slurm client command (sbatch, squeue, scontrol, scancel, sinfo, srun ...) against this testbed. */
    public Result client(long timeoutSeconds, String... command) throws Exception {
        return Pool.exec(List.of(command), Map.of("SLURM_CONF", conf.toString()), jobs, timeoutSeconds);
    }

    /**
     * Writes {@code script} (a whole batch script, #SBATCH lines and all) to the jobs directory and
     * submits it; its output goes to {@link #output(long)}. Returns the job id.
     */
    public long submit(String script, String... sbatchOptions) throws Exception {
        Path file = jobs.resolve("job" + scripts.incrementAndGet() + ".sh");
        Files.writeString(file, script);
        file.toFile().setExecutable(true);
        List<String> command = new ArrayList<>(List.of("sbatch", "--parsable", "--chdir=" + jobs,
                "--output=" + jobs.resolve("slurm-%j.out")));
        command.addAll(Arrays.asList(sbatchOptions));
        command.add(file.toString());
        Result r = client(60, command.toArray(String[]::new));
        if (r.code() != 0) {
            throw new AssertionError("sbatch failed: " + r);
        }
        String id = r.out().trim().split(";", 2)[0];
        if (!id.matches("\\d+")) {
            throw new AssertionError("sbatch printed no job id: " + r);
        }
        return Long.parseLong(id);
    }

    /** The batch script's output file (stdout and stderr). */
    public Path output(long id) {
        return jobs.resolve("slurm-" + id + ".out");
    }

    /**
     * A batch script that runs the PJM job script {@code pjsub} with PJM's environment on top of
     * this Slurm allocation of {@code nodes} nodes (no PJM can be installed here): PJM_O_WORKDIR
     * {@code workdir}, PJM_JOBID the Slurm job's id + 7000, no node list, and Fujitsu's mpiexec
     * mapped to Open MPI's mpirun (a wrapper in jobs/pjm-bin). Two launches run at once (the pools
     * and the node agents): mpirun starts its daemons with srun, whose second step would wait for
     * the first one's CPUs without --overlap.
     */
    public String pjmOnSlurm(Path pjsub, Path workdir, int nodes) throws IOException {
        Path bin = jobs.resolve("pjm-bin");
        Files.createDirectories(bin);
        Path mpiexec = bin.resolve("mpiexec");
        Files.writeString(mpiexec, """
                #!/bin/bash
                root=()
                if [[ $EUID -eq 0 ]]; then root=(--allow-run-as-root); fi
                export SLURM_OVERLAP=1
                exec mpirun "${root[@]}" --oversubscribe "$@"
                """);
        if (!mpiexec.toFile().setExecutable(true)) {
            throw new IOException("cannot make " + mpiexec + " executable");
        }
        Files.createDirectories(workdir);
        return """
                #!/bin/bash
                set -euo pipefail
                export PATH=%s:$PATH
                export PJM_O_WORKDIR=%s PJM_JOBID=$((SLURM_JOB_ID + 7000)) PJM_NODE=%d PJM_MPI_PROC=%d
                export JVMREUSE_MPIEXEC_OPTS='--map-by ppr:@PER_NODE@:node'
                unset SLURM_JOB_NODELIST
                cd "$PJM_O_WORKDIR"
                exec bash %s
                """.formatted(bin, workdir, nodes, nodes, pjsub);
    }

    public String outputText(long id) throws IOException {
        Path out = output(id);
        return Files.exists(out) ? Files.readString(out, StandardCharsets.UTF_8) : "(no output file " + out + ")";
    }

    /** Whether squeue still lists the job (pending, running, completing ...). */
    public boolean listed(long id) throws Exception {
        Result r = client(30, "squeue", "-h", "-j", Long.toString(id));
        if (r.code() == 0) {
            return !r.out().isBlank();
        }
        if (r.err().contains("Invalid job id")) {
            return false; // purged already
        }
        throw new AssertionError("squeue failed: " + r);
    }

    /** Polls {@code squeue -h -j ID} until the job is gone; fails after {@code timeoutMillis}. */
    public void awaitGone(long id, long timeoutMillis) throws Exception {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        while (listed(id)) {
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError("job " + id + " still listed after " + timeoutMillis + " ms:\n"
                        + client(30, "scontrol", "show", "job", Long.toString(id)).out() + "--- output:\n" + outputText(id));
            }
            Thread.sleep(100);
        }
    }

    /** {@code scontrol show job ID} (kept by slurmctld for MinJobAge = 300 s after the job ends). */
    public String showJob(long id) throws Exception {
        Result r = client(30, "scontrol", "show", "job", Long.toString(id));
        if (r.code() != 0) {
            throw new AssertionError("scontrol show job " + id + " failed: " + r);
        }
        return r.out();
    }

    /** The job's JobState (PENDING, RUNNING, COMPLETED, CANCELLED, FAILED ...). */
    public String state(long id) throws Exception {
        String shown = showJob(id);
        Matcher m = JOB_STATE.matcher(shown);
        if (!m.find()) {
            throw new AssertionError("no JobState in:\n" + shown);
        }
        return m.group(1);
    }

    /** The job's ExitCode (status:signal, e.g. 0:0). */
    public String exitCode(long id) throws Exception {
        String shown = showJob(id);
        Matcher m = EXIT_CODE.matcher(shown);
        if (!m.find()) {
            throw new AssertionError("no ExitCode in:\n" + shown);
        }
        return m.group(1);
    }

    /** Polls until the job's state is {@code wanted}; fails if it ends otherwise or after the timeout. */
    public void awaitState(long id, String wanted, long timeoutMillis) throws Exception {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        String s;
        while (!(s = state(id)).equals(wanted)) {
            if (System.currentTimeMillis() > deadline || !(s.equals("PENDING") || s.equals("CONFIGURING"))) {
                throw new AssertionError("job " + id + " is " + s + ", not " + wanted + ":\n" + showJob(id)
                        + "--- output:\n" + outputText(id));
            }
            Thread.sleep(100);
        }
    }

    public Result scancel(long id) throws Exception {
        return client(30, "scancel", Long.toString(id));
    }

    /** Live processes of job {@code id}: SLURM_JOB_ID=id and this testbed's SLURM_CLUSTER_NAME in their environment. */
    public List<Long> jobProcesses(long id) {
        return scan(env -> env.contains("SLURM_JOB_ID=" + id) && env.contains("SLURM_CLUSTER_NAME=" + cluster), false);
    }

    /**
     * Every live process of the testbed: its daemons and slurmstepd (JVMREUSE_SLURM_TESTBED=dir in
     * their environment), any job process (SLURM_JOB_ID and this testbed's cluster name), anything
     * whose command line names the testbed dir.
     */
    public List<Long> processes() {
        return scan(env -> env.contains("JVMREUSE_SLURM_TESTBED=" + dir)
                || (env.contains("SLURM_CLUSTER_NAME=" + cluster) && env.stream().anyMatch(e -> e.startsWith("SLURM_JOB_ID="))),
                true);
    }

    /** The command line of a process, arguments separated by spaces ("" if it is gone). */
    public static String commandLine(long pid) {
        try {
            return Files.readString(Path.of("/proc/" + pid + "/cmdline")).replace('\0', ' ').trim();
        } catch (IOException gone) {
            return "";
        }
    }

    private List<Long> scan(java.util.function.Predicate<List<String>> envMatches, boolean orCommandLine) {
        List<Long> found = new ArrayList<>();
        long self = ProcessHandle.current().pid();
        ProcessHandle.allProcesses().forEach(p -> {
            long pid = p.pid();
            if (pid == self || !Pool.running(pid)) {
                return;
            }
            try {
                byte[] raw = Files.readAllBytes(Path.of("/proc/" + pid + "/environ"));
                List<String> env = Arrays.asList(new String(raw, StandardCharsets.UTF_8).split("\0"));
                if (envMatches.test(env) || (orCommandLine && mentionsDir(commandLine(pid)))) {
                    found.add(pid);
                }
            } catch (IOException gone) {
                // exited meanwhile (or not readable: not ours)
            }
        });
        return found;
    }

    private boolean mentionsDir(String cmdline) {
        String d = dir.toString();
        return cmdline.contains(d + "/") || cmdline.endsWith(d) || cmdline.contains(d + " ");
    }

    /** Live processes of job {@code id} once none is left or {@code waitMillis} have passed. */
    public List<Long> jobProcessesAfter(long id, long waitMillis) throws InterruptedException {
        long until = System.currentTimeMillis() + waitMillis;
        List<Long> left = jobProcesses(id);
        while (!left.isEmpty() && System.currentTimeMillis() < until) {
            Thread.sleep(250);
            left = jobProcesses(id);
        }
        return left;
    }

    /** The processes in {@code pids} with their command lines, for failure messages. */
    public static String describe(List<Long> pids) {
        StringBuilder s = new StringBuilder();
        for (long pid : pids) {
            s.append("\n  ").append(pid).append(' ').append(commandLine(pid));
        }
        return s.toString();
    }

    /** Stops the testbed; fails if it does not stop cleanly or leaves a process behind. */
    @Override
    public void close() throws Exception {
        Result stopped = Pool.exec(List.of(CLI.toString(), "stop", "--dir", dir.toString()), Map.of(), null, 120);
        if (stopped.code() != 0) {
            throw new IllegalStateException("the Slurm testbed did not stop cleanly (logs in " + dir + "/log): " + stopped);
        }
        List<Long> left = processes();
        if (!left.isEmpty()) {
            throw new IllegalStateException("processes of the testbed left after stop (logs in " + dir + "/log):" + describe(left));
        }
        Result status = Pool.exec(List.of(CLI.toString(), "status", "--dir", dir.toString()), Map.of(), null, 60);
        if (status.code() == 0) {
            throw new IllegalStateException("status still says the testbed runs after stop: " + status);
        }
        try (var files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        }
    }
}
