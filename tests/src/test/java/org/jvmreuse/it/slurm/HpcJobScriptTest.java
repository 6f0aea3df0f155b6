package org.jvmreuse.it.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.jvmreuse.it.Pool;
import org.jvmreuse.it.Pool.Result;
import org.jvmreuse.it.hadoop.JobJars;

/**
 * The batch job scripts of job-scripts/sbatch and job-scripts/pjsub (library job-scripts/lib/batch/hpc-job.sh)
 * on the real one-machine Slurm testbed (3 emulated nodes n1..n3 on this host): a PageRank with
 * JVM Reuse pools on 3 nodes and a stock K-means on 2 nodes are checked against the in-memory
 * references (the terasort comparison runs across separate hosts: SbatchAcrossHostsTest); pre/post
 * hooks run around the workload with the cluster's
 * environment; interactive mode serves another shell until the walltime margin and setup-only mode
 * returns to the job script; scancel during a run stops every daemon and process of
 * the job and keeps the logs; bad input fails before anything starts; and the PJM script runs with
 * PJM's environment on top of a Slurm allocation (mpiexec mapped to Open MPI's mpirun; no real PJM
 * exists here).
 */
class HpcJobScriptTest {
    private static final Path SBATCH = Pool.REPO.resolve("job-scripts/sbatch/jvmreuse-hadoop.sbatch");
    private static final Path PJSUB = Pool.REPO.resolve("job-scripts/pjsub/jvmreuse-hadoop.pjsub");
    private static final Path LIB = Pool.REPO.resolve("job-scripts/lib/batch/hpc-job.sh");
    /** Interactive mode's job time limit (s): start-up plus the other shell's check fit before its margin. */
    private static final int INTERACTIVE_WALLTIME = 140;
    private static SlurmTestbed testbed;

    @BeforeAll
    static void startTestbed() throws Exception {
        testbed = SlurmTestbed.start(3, "--memory-mb", "8192");
    }

    @AfterAll
    static void stopTestbed() throws Exception {
        if (testbed != null) {
            testbed.close();
        }
    }

    // ---------------------------------------------------------------------------------------

    /**
     * PageRank with the batch job's defaults on three nodes, and after it (in the post hook, with
     * the job's cluster) a 3-map job small enough for uber mode whose tasks leave a static, a system
     * property and a security property behind: with the job's defaults every task runs in a slot of
     * its own and sees none of them, as in a new JVM (uber mode only on request).
     */
    @Test
    void pageRankWithPoolsOnThreeNodesMatchesTheReferenceWithHooksAroundIt() throws Exception {
        Path probe = testbed.jobs.resolve("probe.sh");
        Files.writeString(probe, """
                #!/bin/bash
                set -euo pipefail
                hadoop jar %s %s %s "$JVMREUSE_OUTPUT_DIR/probe" >"$JVMREUSE_OUTPUT_DIR/probe.log" 2>&1
                """.formatted(JobJars.withMarker(testbed.jobs, "hpc-defaults"), JobJars.main("ProbeJob").get(0),
                JobJars.lines(testbed.jobs, "hpc-probe-in", 3)));
        probe.toFile().setExecutable(true);
        Map<String, String> env = settings(Map.of("JVMREUSE_WORKLOAD", "pagerank", "JVMREUSE_PAGERANK_NODES", "2000",
                "JVMREUSE_ITERATIONS", "2", "JVMREUSE_PRE_HOOK", hook("pre").toString(),
                "JVMREUSE_POST_HOOK", hook("post").toString() + " --after && " + probe));
        long id = submitFile(SBATCH, 3, env);
        testbed.awaitGone(id, 420_000);
        String out = testbed.outputText(id);
        assertEquals("COMPLETED", testbed.state(id), out);
        assertEquals("0:0", testbed.exitCode(id), out);
        Path dir = testbed.jobs.resolve("jvmreuse-" + id);
        assertTrue(out.contains("3 nodes (n1 n2 n3), master n1"), out);
        assertTrue(out.contains("verify-pagerank passed"), out);
        assertTrue(out.contains(", warm-up none) with "), "a batch job's slots serve cold by default: " + out);

        // Our own check against the reference, independent of the script's.
        Result verify = Pool.workloads("verify-pagerank", "--graph", dir.resolve("data/graph").toString(),
                "--output", dir.resolve("data/pagerank").toString());
        assertEquals(0, verify.code(), "verify-pagerank: " + verify);

        assertTimingsAndPicture(dir, "pagerank");
        for (String node : List.of("n1", "n2", "n3")) {
            Path nmLog = dir.resolve("logs/nodes/" + node + "/logs/nodemanager.log");
            assertTrue(Files.size(nmLog) > 0, nmLog.toString());
            assertTrue(Files.readString(dir.resolve("run/nodes/" + node + "/pool.state")).startsWith("serving"),
                    "pool of " + node + " did not serve");
        }
        // Tasks ran in pool slots on more than one node (each node has its own pool socket).
        long nodesWithPoolTasks = Stream.of("n1", "n2", "n3").filter(n -> read(dir.resolve("logs/nodes/" + n + "/logs/nodemanager.log"))
                .contains("task handed to the JVM pool at")).count();
        assertTrue(nodesWithPoolTasks >= 2, "pool tasks ran on " + nodesWithPoolTasks + " nodes only");
        assertTrue(Files.size(dir.resolve("logs/master/resourcemanager.log")) > 0);
        assertTrue(Files.size(dir.resolve("logs/master/pools.log")) >= 0);
        assertTrue(out.contains("stopped everything"), out);
        assertNoJobProcesses(id);
        // The hooks ran in order, with the cluster's environment, while the RM served all 3 nodes.
        String conf = dir.resolve("run/master/conf").toString();
        String hadoop = dir.resolve("run/master/bin/hadoop").toString();
        assertEquals(List.of(
                "pre args= workload-log=no conf=" + conf + " hadoop=" + hadoop + " rm=\"activeNodes\":3",
                "post args=--after workload-log=yes conf=" + conf + " hadoop=" + hadoop + " rm=\"activeNodes\":3"),
                Files.readAllLines(dir.resolve("hooks.txt")), out);
        String probeLog = read(dir.resolve("probe.log"));
        assertTrue(probeLog.contains("running in uber mode : false"), "uber mode is off by default:\n" + probeLog);
        List<String> probeLines = new ArrayList<>();
        try (Stream<Path> parts = Files.list(dir.resolve("probe"))) {
            for (Path part : parts.filter(p -> p.getFileName().toString().startsWith("part-")).sorted().toList()) {
                probeLines.addAll(Files.readAllLines(part));
            }
        }
        assertEquals(3, probeLines.size(), "one line per task: " + probeLines);
        for (String line : probeLines) {
            for (String fact : List.of("staticCallsBefore=0", "leakProperty=null", "leakSecurity=null", "marker=hpc-defaults")) {
                assertTrue(("\t" + line + "\t").contains("\t" + fact + "\t"), "a task saw what a new JVM would not: " + line);
            }
        }
    }

    /** A hook script that appends what it saw to the job's hooks.txt: its name, args, whether the workload ran, its env. */
    private static Path hook(String name) throws IOException {
        Path file = testbed.jobs.resolve("hook-" + name + ".sh");
        Files.writeString(file, """
                #!/bin/bash
                set -euo pipefail
                seen=no
                if [[ -e $JVMREUSE_OUTPUT_DIR/logs/workload.log ]]; then seen=yes; fi
                rm=$(curl -sf "$JVMREUSE_RM_WEB/ws/v1/cluster/metrics" | grep -o '"activeNodes":[0-9]*')
                echo "%s args=$* workload-log=$seen conf=$HADOOP_CONF_DIR hadoop=$(command -v hadoop) rm=$rm" >>"$JVMREUSE_OUTPUT_DIR/hooks.txt"
                """.formatted(name));
        file.toFile().setExecutable(true);
        return file;
    }

    @Test
    void stockKMeansOnTwoNodesMatchesTheReference() throws Exception {
        Map<String, String> env = settings(Map.of("JVMREUSE_WORKLOAD", "kmeans", "JVMREUSE_POOL", "0",
                "JVMREUSE_KMEANS_POINTS", "3000", "JVMREUSE_KMEANS_K", "3", "JVMREUSE_KMEANS_DIMENSIONS", "2",
                "JVMREUSE_ITERATIONS", "2"));
        long id = submitFile(SBATCH, 2, env);
        testbed.awaitGone(id, 360_000);
        String out = testbed.outputText(id);
        assertEquals("COMPLETED", testbed.state(id), out);
        Path dir = testbed.jobs.resolve("jvmreuse-" + id);
        assertTrue(out.contains("verify-kmeans passed"), out);
        Result verify = Pool.workloads("verify-kmeans", "--input", dir.resolve("data/points").toString(),
                "--output", dir.resolve("data/kmeans").toString());
        assertEquals(0, verify.code(), "verify-kmeans: " + verify);
        assertTimingsAndPicture(dir, "kmeans");
        assertFalse(Files.exists(dir.resolve("run/master/pids/pools.pid")), "stock mode started pools");
        assertNoJobProcesses(id);
    }

    @Test
    void scancelDuringTheRunStopsEverythingAndKeepsTheLogs() throws Exception {
        Map<String, String> env = settings(Map.of("JVMREUSE_WORKLOAD", "pagerank", "JVMREUSE_PAGERANK_NODES", "2000",
                "JVMREUSE_ITERATIONS", "30"));
        long id = submitFile(SBATCH, 3, env);
        Path dir = testbed.jobs.resolve("jvmreuse-" + id);
        Path workloadLog = dir.resolve("logs/workload.log");
        long deadline = System.currentTimeMillis() + 300_000;
        while (!read(workloadLog).contains("iteration 1/30")) {
            assertTrue(testbed.listed(id), "the job ended before its workload ran:\n" + testbed.outputText(id));
            assertTrue(System.currentTimeMillis() < deadline, "the workload did not start:\n" + testbed.outputText(id));
            Thread.sleep(500);
        }
        // Every daemon of the job, from its pid files.
        List<Long> daemons = new ArrayList<>();
        for (String f : List.of("run/master/pids/resourcemanager.pid", "run/master/pids/historyserver.pid",
                "run/master/pids/pools.pid", "run/nodes/n1/pids/nodemanager.pid", "run/nodes/n2/pids/nodemanager.pid",
                "run/nodes/n3/pids/nodemanager.pid")) {
            long pid = Long.parseLong(Files.readString(dir.resolve(f)).trim());
            assertTrue(Pool.running(pid), f + ": " + pid + " is not running before scancel");
            daemons.add(pid);
        }
        assertFalse(testbed.jobProcesses(id).isEmpty());
        Result cancelled = testbed.scancel(id);
        assertEquals(0, cancelled.code(), cancelled.toString());
        testbed.awaitGone(id, 60_000);
        assertEquals("CANCELLED", testbed.state(id), testbed.outputText(id));
        String out = testbed.outputText(id);
        assertTrue(out.contains("received SIGTERM"), out);
        assertTrue(out.contains("stopped everything"), out);
        long until = System.currentTimeMillis() + 15_000;
        while (daemons.stream().anyMatch(Pool::running) && System.currentTimeMillis() < until) {
            Thread.sleep(200);
        }
        for (long pid : daemons) {
            assertFalse(Pool.running(pid), "daemon " + pid + " survived scancel: " + SlurmTestbed.commandLine(pid));
        }
        assertNoJobProcesses(id);
        // The logs stay.
        assertTrue(Files.size(dir.resolve("logs/master/resourcemanager.log")) > 0);
        assertTrue(read(workloadLog).contains("iteration 1/30"));
        assertTrue(Files.size(dir.resolve("logs/nodes/n2/logs/nodemanager.log")) > 0);
        assertTrue(Files.exists(dir.resolve("summary.txt")));
    }

    @Test
    void badInputFailsFastWithAClearMessageAndStartsNothing() throws Exception {
        Map<String, String[]> cases = new LinkedHashMap<>();
        cases.put("unknown workload JVMREUSE_WORKLOAD='wordcount'", new String[] {"JVMREUSE_WORKLOAD=wordcount"});
        cases.put("the input path JVMREUSE_INPUT=/nonexistent/graph does not exist", new String[] {"JVMREUSE_INPUT=/nonexistent/graph"});
        cases.put("too little memory on the master node n|: 40 slots x 1024 MB + pool manager 1024 MB", new String[] {"JVMREUSE_SLOTS=40", "JVMREUSE_SLOT_HEAP=1g"});
        cases.put("cannot parse the node list SLURM_JOB_NODELIST='n[1-'", new String[] {"SLURM_JOB_NODELIST=n[1-"});
        cases.put("too little memory on the master node n|(node memory from SLURM_MEM_PER_CPU 100 MB x", new String[] {"--mem-per-cpu=100"});
        cases.put("unknown mode JVMREUSE_MODE='shell'", new String[] {"JVMREUSE_MODE=shell"});
        cases.put("the hook JVMREUSE_PRE_HOOK=/nonexistent/hook.sh arg: /nonexistent/hook.sh is not an executable file",
                new String[] {"JVMREUSE_PRE_HOOK=/nonexistent/hook.sh arg"});
        Map<Long, String> jobs = new LinkedHashMap<>();
        for (Map.Entry<String, String[]> c : cases.entrySet()) {
            StringBuilder script = new StringBuilder("#!/bin/bash\nset -euo pipefail\n");
            List<String> options = new ArrayList<>(List.of("-N", "1", "--export=ALL,JVMREUSE_HOME=" + Pool.REPO));
            for (String kv : c.getValue()) {
                if (kv.startsWith("--")) {
                    options.add(kv); // an sbatch option
                } else {
                    script.append("export ").append(kv.replaceFirst("=", "='")).append("'\n");
                }
            }
            script.append("source ").append(LIB).append("\nhpc_job_main slurm\n");
            long id = testbed.submit(script.toString(), options.toArray(String[]::new));
            jobs.put(id, c.getKey());
        }
        for (Map.Entry<Long, String> j : jobs.entrySet()) {
            long id = j.getKey();
            testbed.awaitGone(id, 120_000);
            String out = testbed.outputText(id);
            assertEquals("FAILED", testbed.state(id), out);
            for (String part : j.getValue().split("\\|")) {
                assertTrue(out.contains(part), "expected '" + part + "' in:\n" + out);
            }
            assertTrue(out.contains("ERROR: " + j.getValue().split("\\|")[0]), out);
            assertFalse(out.contains("started ResourceManager"), out);
            assertFalse(Files.exists(testbed.jobs.resolve("jvmreuse-" + id)), "an output dir was made for a bad job:\n" + out);
            assertNoJobProcesses(id);
        }
    }

    /**
     * Interactive mode (sbatch script on n1 n2): another shell on the allocation (an srun step)
     * sources the env file and lists the NodeManagers; the job stops everything at the walltime
     * margin. Meanwhile setup-only mode (on n3, with HDFS) returns to its job script, whose own
     * commands use the cluster and its HDFS, which stop when the script exits. Then a job whose pre hook fails: FAILED, no
     * workload, no post hook, everything stopped.
     */
    @Test
    void interactiveModeServesAnotherShellUntilTheMarginAndSetupOnlyReturnsToTheScript() throws Exception {
        Map<String, String> env = settings(Map.of("JVMREUSE_MODE", "interactive", "JVMREUSE_WALLTIME", "%d".formatted(INTERACTIVE_WALLTIME),
                "JVMREUSE_WALLTIME_MARGIN", "20"));
        long interactive = submitFile(SBATCH, 2, env);
        String setupScript = """
                #!/bin/bash
                set -euo pipefail
                source %s
                hpc_job_main slurm
                echo "script goes on: HADOOP_CONF_DIR=$HADOOP_CONF_DIR"
                yarn node -list 2>/dev/null | grep -o 'Total Nodes:[0-9]*'
                fs=$(hdfs org.apache.hadoop.hdfs.tools.GetConf -confKey fs.defaultFS 2>/dev/null)
                if [[ $fs == hdfs://* ]]; then hadoop fs -mkdir /probe 2>/dev/null; fi
                echo "fs ${fs/:*/} holds $(hadoop fs -ls / 2>/dev/null | grep -o '/probe$')"
                echo "script ends"
                """.formatted(LIB);
        // setup-only, with HDFS: the engine formats it, starts the NameNode and the node's DataNode
        long setup = testbed.submit(setupScript, "-N", "1", export(settings(Map.of("JVMREUSE_MODE", "setup-only", "JVMREUSE_POOL", "0",
                "JVMREUSE_HDFS", "1"))));

        Path dir = testbed.jobs.resolve("jvmreuse-" + interactive);
        Path envFile = dir.resolve("env.sh");
        long deadline = System.currentTimeMillis() + 300_000;
        while (!Files.exists(envFile)) {
            assertTrue(testbed.listed(interactive), "the interactive job ended without an env file:\n" + testbed.outputText(interactive));
            assertTrue(System.currentTimeMillis() < deadline, "no env file:\n" + testbed.outputText(interactive));
            Thread.sleep(500);
        }
        Result nodes = testbed.client(120, "srun", "--overlap", "--jobid=" + interactive, "-N1", "-n1", "-w", "n2", "bash", "-c",
                ". " + envFile + " && command -v hadoop yarn mapred jvmreuse >&2 && yarn node -list 2>/dev/null");
        assertEquals(0, nodes.code(), nodes.toString());
        assertTrue(nodes.out().contains("Total Nodes:2"), nodes.toString());
        assertEquals(2, nodes.out().lines().filter(l -> l.contains("RUNNING")).count(), nodes.toString());
        assertTrue(nodes.err().contains(dir.resolve("run/master/bin/yarn").toString()), nodes.toString());
        assertTrue(testbed.listed(interactive), "the interactive job did not wait:\n" + testbed.outputText(interactive));

        testbed.awaitGone(setup, 120_000);
        // While the interactive job waits for its margin: a failing pre hook on the freed node.
        Path postRan = testbed.jobs.resolve("post-hook-ran");
        long failing = testbed.submit("#!/bin/bash\nset -euo pipefail\nsource " + LIB + "\nhpc_job_main slurm\n", "-N", "1",
                export(settings(Map.of("JVMREUSE_POOL", "0", "JVMREUSE_PRE_HOOK", "exit 3", "JVMREUSE_POST_HOOK", "touch " + postRan))));

        testbed.awaitGone(interactive, (INTERACTIVE_WALLTIME + 60) * 1000L);
        String out = testbed.outputText(interactive);
        assertEquals("COMPLETED", testbed.state(interactive), out);
        assertTrue(out.contains("interactive: the walltime margin is here: stopping the cluster"), out);
        assertTrue(out.contains("stopped everything"), out);
        assertFalse(out.contains("the workload"), out);
        assertFalse(Files.exists(dir.resolve("logs/workload.log")), "a workload ran in interactive mode");
        assertNoJobProcesses(interactive);

        String setupOut = testbed.outputText(setup);
        assertEquals("COMPLETED", testbed.state(setup), setupOut);
        Path setupDir = testbed.jobs.resolve("jvmreuse-" + setup);
        int goesOn = setupOut.indexOf("script goes on: HADOOP_CONF_DIR=" + setupDir.resolve("run/master/conf"));
        int listed = setupOut.indexOf("Total Nodes:1");
        int hdfs = setupOut.indexOf("fs hdfs holds /probe");
        int ends = setupOut.indexOf("script ends");
        int stopped = setupOut.indexOf("stopped everything");
        assertTrue(goesOn > 0 && goesOn < listed && listed < hdfs && hdfs < ends && ends < stopped, setupOut);
        assertTrue(Files.readString(setupDir.resolve("env.sh")).contains("HADOOP_CONF_DIR="), setupOut);
        assertNoJobProcesses(setup);

        testbed.awaitGone(failing, 180_000);
        String failingOut = testbed.outputText(failing);
        assertEquals("FAILED", testbed.state(failing), failingOut);
        assertTrue(failingOut.contains("ERROR: the pre-job hook JVMREUSE_PRE_HOOK failed (status 3): no workload runs"), failingOut);
        assertTrue(failingOut.contains("stopped everything"), failingOut);
        assertFalse(Files.exists(testbed.jobs.resolve("jvmreuse-" + failing + "/logs/workload.log")), failingOut);
        assertFalse(Files.exists(postRan), "the post hook ran after a failed pre hook");
        assertNoJobProcesses(failing);
    }

    @Test
    void pjmScriptRunsWithPjmEnvironmentOnASlurmAllocation() throws Exception {
        Path workdir = testbed.jobs.resolve("pjm-work");
        String script = testbed.pjmOnSlurm(PJSUB, workdir, 2);
        Map<String, String> env = settings(Map.of("JVMREUSE_WORKLOAD", "kmeans", "JVMREUSE_KMEANS_POINTS", "2000",
                "JVMREUSE_KMEANS_K", "3", "JVMREUSE_KMEANS_DIMENSIONS", "2", "JVMREUSE_ITERATIONS", "1"));
        long id = testbed.submit(script, "-N", "2", export(env));
        testbed.awaitGone(id, 360_000);
        String out = testbed.outputText(id);
        assertEquals("COMPLETED", testbed.state(id), out);
        assertTrue(out.contains("(pjm): 2 nodes (n1 n2), master n1"), out);
        assertTrue(out.contains("started the NodeManager agents as one rank per node: mpiexec"), out);
        assertTrue(out.contains("with mpiexec"), out);
        assertTrue(out.contains("verify-kmeans passed"), out);
        Path dir = workdir.resolve("jvmreuse-" + (id + 7000));
        assertTrue(Files.isDirectory(dir), "no output dir " + dir + ":\n" + out);
        assertTimingsAndPicture(dir, "kmeans");
        for (String node : List.of("n1", "n2")) {
            assertTrue(read(dir.resolve("run/nodes/" + node + "/logs/agent.log")).contains("NodeManager pid"), node);
            assertTrue(read(dir.resolve("run/nodes/" + node + "/pool.state")).startsWith("serving"), node);
        }
        assertNoJobProcesses(id);
    }

    // ---------------------------------------------------------------------------------------

    private static Map<String, String> settings(Map<String, String> more) {
        Map<String, String> env = new LinkedHashMap<>(SlurmTestbed.SMALL_JOB);
        env.putAll(more);
        return env;
    }

    private static String export(Map<String, String> env) {
        StringBuilder s = new StringBuilder("--export=ALL");
        env.forEach((k, v) -> {
            if (v.contains(",")) {
                throw new IllegalArgumentException("sbatch --export cannot carry a comma: " + k + "=" + v);
            }
            s.append(',').append(k).append('=').append(v);
        });
        return s.toString();
    }

    /** Submits a job script file (its #SBATCH lines apply) on {@code nodes} nodes with {@code env}. */
    private static long submitFile(Path file, int nodes, Map<String, String> env) throws Exception {
        return testbed.submit(Files.readString(file), "-N", Integer.toString(nodes), export(env));
    }

    private static void assertTimingsAndPicture(Path dir, String label) throws IOException {
        Path tasks = dir.resolve("timings/" + label + "-tasks.csv");
        assertTrue(Files.exists(tasks), "no " + tasks);
        assertTrue(Files.readAllLines(tasks).size() > 2, "too few task rows in " + tasks);
        assertTrue(Files.readString(dir.resolve("timings/job-phases.csv")).contains("workload,"));
        Path png = dir.resolve("timings/" + label + "-timeline.png");
        assertTrue(Files.exists(png), "no timeline picture " + png);
        byte[] head = Files.readAllBytes(png);
        assertTrue(head.length > 1000 && head[1] == 'P' && head[2] == 'N' && head[3] == 'G', "not a PNG: " + png);
        assertTrue(read(dir.resolve("summary.txt")).contains("exit status 0"));
    }

    /** No live process of the job (zombies excluded) within a few seconds of its end. */
    private static void assertNoJobProcesses(long id) throws InterruptedException {
        List<Long> left = testbed.jobProcessesAfter(id, 15_000);
        assertTrue(left.isEmpty(), "processes of job " + id + " left:" + SlurmTestbed.describe(left));
    }

    private static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file) : "";
        } catch (IOException e) {
            return "";
        }
    }
}
