package org.jvmreuse.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every command a user runs describes itself: {@code --help} and {@code -h} exit 0 with a usage
 * text and change nothing. The scripts are found by listing their directories, so a new one
 * without --help fails here. Tools a script could reach for (apt-get, mvn, mpirun, sbatch,
 * java...) are shadowed on PATH, and in JAVA_HOME, by recorders: any call is a failure, and so is
 * any file created or changed in the checkout or in the temporary HOME and TMPDIR.
 */
class HelpTest {
    /** What a script could run: package managers, builds, MPI, schedulers, JVMs, Hadoop, downloads. */
    private static final List<String> RECORDED = List.of("apt-get", "apt", "apt-cache", "dnf", "yum", "spack", "module",
            "mvn", "make", "gcc", "cc", "mpicc", "javac", "java", "jar", "mpirun", "mpiexec", "orterun", "sbatch", "srun",
            "salloc", "scancel", "squeue", "sinfo", "scontrol", "slurmctld", "slurmd", "munged", "pjsub", "pjstat", "hadoop",
            "yarn", "hdfs", "mapred", "curl", "wget", "ssh", "git", "sudo", "systemctl", "jq", "python3");
    /** Directories of commands users run (lib/ holds what those commands source or exec). */
    private static final List<String> SCRIPT_DIRS = List.of("job-scripts", "job-scripts/bin", "job-scripts/bench",
            "job-scripts/sbatch", "job-scripts/pjsub", "job-scripts/testbed");

    private static Path sandbox;
    private static Path calls;
    private static Map<String, String> env;

    @BeforeAll
    static void recorders() throws IOException {
        sandbox = Files.createTempDirectory("jrt-help-");
        calls = sandbox.resolve("calls.log");
        Path bin = Files.createDirectories(sandbox.resolve("recorders"));
        Path jdkBin = Files.createDirectories(sandbox.resolve("jdk/bin"));
        for (String tool : RECORDED) {
            for (Path dir : List.of(bin, jdkBin)) {
                Path recorder = dir.resolve(tool);
                Files.writeString(recorder, "#!/bin/sh\necho \"$0 $*\" >>'" + calls + "'\nexit 97\n");
                Files.setPosixFilePermissions(recorder, PosixFilePermissions.fromString("rwxr-xr-x"));
            }
        }
        Files.createDirectories(sandbox.resolve("home"));
        Files.createDirectories(sandbox.resolve("tmp"));
        env = Map.of("PATH", bin + ":/usr/local/bin:/usr/bin:/bin", "HOME", sandbox.resolve("home").toString(),
                "TMPDIR", sandbox.resolve("tmp").toString(), "JAVA_HOME", sandbox.resolve("jdk").toString(),
                "LANG", "C.UTF-8", "USER", System.getProperty("user.name"));
    }

    @AfterAll
    static void removeSandbox() throws IOException {
        try (Stream<Path> files = Files.walk(sandbox)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        }
    }

    @Test
    void everyScriptPrintsItsUsageAndChangesNothing() throws Exception {
        List<Path> scripts = new ArrayList<>();
        for (String dir : SCRIPT_DIRS) {
            try (Stream<Path> files = Files.list(Pool.REPO.resolve(dir))) {
                files.filter(Files::isRegularFile).sorted().forEach(scripts::add);
            }
        }
        assertTrue(scripts.size() >= 15, "the scripts were not found: " + scripts);
        for (Path script : scripts) {
            for (String flag : List.of("--help", "-h")) {
                // Run as a user would: directly, or with bash for a batch script (sbatch/pjsub pass arguments on).
                List<String> command = Files.isExecutable(script) ? List.of(script.toString(), flag)
                        : List.of("/bin/bash", script.toString(), flag);
                assertHelp(command, script.getFileName().toString());
            }
        }
    }

    @Test
    void theClientAndTheJavaMainsPrintTheirUsageAndChangeNothing() throws Exception {
        for (List<String> args : List.of(List.of("--help"), List.of("-h"), List.of("status", "--help"),
                List.of("--socket", "/nonexistent/pool.sock", "stop", "--help"))) {
            List<String> command = new ArrayList<>(List.of(Pool.CLIENT.toString()));
            command.addAll(args);
            String usage = assertHelp(command, "jvmreuse");
            assertTrue(usage.contains("status [--json]") && usage.contains("JVMREUSE_SOCKET")
                    && usage.contains("example"), usage);
        }
        Path jar;
        try (Stream<Path> jars = Files.list(Pool.REPO.resolve("workloads/target"))) {
            jar = jars.filter(p -> p.getFileName().toString().matches("workloads-.*\\.jar")).findFirst().orElseThrow();
        }
        String cp = jar + ":" + Pool.REPO.resolve("workloads/target/lib") + "/*";
        assertHelp(List.of(Jdks.DEFAULT, "-cp", cp, "org.jvmreuse.workloads.Main", "--help"), "pagerank");
        assertHelp(List.of(Jdks.DEFAULT, "-cp", cp, "org.jvmreuse.workloads.Main", "pagerank", "--help"), "pagerank");
        assertHelp(List.of(Jdks.DEFAULT, "-cp", Pool.REPO.resolve("pool-manager/target/classes").toString(),
                "org.jvmreuse.pool.PoolMain", "--help"), "PoolMain");
    }

    @Test
    void theClientsVersionIsTheProjectsWithTheCommitItWasBuiltFrom() throws Exception {
        String version = System.getProperty("jvmreuse.version");
        assertTrue(version != null && !version.isEmpty(), "jvmreuse.version is not set (tests/pom.xml)");
        Pool.Result result = Pool.exec(List.of(Pool.CLIENT.toString(), "--version"), env, sandbox, 10);
        assertEquals(0, result.code(), result.toString());
        assertTrue(result.out().matches("jvmreuse \\Q" + version + "\\E( \\(commit [0-9a-f]{12}\\))?\n"), result.out());
        Pool.Result commit = Pool.exec(List.of("git", "-C", Pool.REPO.toString(), "rev-parse", "--short=12", "HEAD"),
                Map.of(), null, 10);
        if (commit.code() == 0) {
            assertTrue(result.out().contains("(commit "), "built in a git checkout: " + result.out());
        }
        assertTrue(assertHelp(List.of(Pool.CLIENT.toString(), "--help"), "jvmreuse").startsWith(result.out().strip() + ":"),
                "--help names the same version");
    }

    /**
     * Runs {@code command} in the sandbox; checks exit 0, a usage text that names {@code name},
     * no recorded tool call and no file created or changed. Returns the text.
     */
    private static String assertHelp(List<String> command, String name) throws Exception {
        Map<String, String> before = snapshot();
        Pool.Result result = Pool.exec(command, env, sandbox.resolve("tmp"), 20);
        String what = String.join(" ", command);
        assertEquals(0, result.code(), what + ": " + result);
        String text = result.out();
        assertTrue(text.contains(name) && text.strip().lines().count() >= 3, what + " printed no usage: " + result);
        assertEquals("", Files.exists(calls) ? Files.readString(calls) : "", what + " ran tools");
        assertEquals(before, snapshot(), what + " created or changed files");
        return text;
    }

    /**
     * Size and modification time of every file and directory of the checkout (without .git and
     * tests/target, where this very build writes) and of the temporary HOME and TMPDIR.
     */
    private static Map<String, String> snapshot() throws IOException {
        Map<String, String> state = new TreeMap<>();
        for (Path root : List.of(Pool.REPO, sandbox.resolve("home"), sandbox.resolve("tmp"))) {
            try (Stream<Path> files = Files.walk(root)) {
                files.filter(p -> !p.startsWith(Pool.REPO.resolve(".git")) && !p.startsWith(Pool.REPO.resolve("tests/target")))
                        .forEach(p -> {
                            try {
                                BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class,
                                        java.nio.file.LinkOption.NOFOLLOW_LINKS);
                                state.put(p.toString(), a.size() + "@" + a.lastModifiedTime().toMillis());
                            } catch (IOException e) {
                                state.put(p.toString(), "unreadable: " + e);
                            }
                        });
            }
        }
        return state;
    }
}
