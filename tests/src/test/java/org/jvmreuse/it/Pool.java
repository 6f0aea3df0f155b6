package org.jvmreuse.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.codehaus.jackson.JsonNode;
import org.codehaus.jackson.map.ObjectMapper;

/**
 * A real pool for a test: started with job-scripts/bin/jvmreuse-pool (mpirun and all) on a
 * private socket, driven with the real jvmreuse client, stopped by PID when closed.
 */
public final class Pool implements AutoCloseable {
    public static final Path REPO = Path.of(System.getProperty("jvmreuse.repo", "..")).toAbsolutePath().normalize();
    public static final Path CLIENT = REPO.resolve("pool-manager/target/native/jvmreuse");
    static final Path LAUNCHER = REPO.resolve("job-scripts/bin/jvmreuse-pool");
    static final String PROGRAMS = REPO.resolve("tests/target/test-classes").toString();

    private static final int LOG_TAIL_LINES = 40;

    final Path dir;
    final Path socket;
    final String java;
    private final long mpirunPid;
    private final Map<String, String> launchEnv;

    private Pool(Path dir, String java, long mpirunPid, Map<String, String> launchEnv) {
        this.dir = dir;
        this.socket = dir.resolve("pool.sock");
        this.java = java;
        this.mpirunPid = mpirunPid;
        this.launchEnv = launchEnv;
    }

    static Pool start(int slots) throws Exception {
        return start(slots, Jdks.DEFAULT);
    }

    static Pool start(int slots, String java) throws Exception {
        return start(slots, java, "");
    }

    static Pool start(int slots, String java, String jvmOptions) throws Exception {
        return start(slots, java, jvmOptions, Map.of());
    }

    /**
     * A pool launched with more environment for jvmreuse-pool start and stop, e.g.
     * JVMREUSE_MPI_ENV to launch it under another MPI. Its slots skip the built-in warm-up unless
     * {@code launchEnv} names JVMREUSE_WARMUP_RUNS ("" for the default): the start waits for every
     * slot's warm-up, and the tests check behaviour, not speed.
     */
    static Pool start(int slots, String java, String jvmOptions, Map<String, String> launchEnv) throws Exception {
        Map<String, String> env = new java.util.HashMap<>(Map.of("JVMREUSE_WARMUP_RUNS", "0"));
        env.putAll(launchEnv);
        Path dir = Files.createTempDirectory(Path.of("/tmp"), "jrt-");
        Files.delete(dir); // the pool creates it, private
        Result started = exec(List.of(LAUNCHER.toString(), "start", "--slots", Integer.toString(slots),
                "--socket", dir.resolve("pool.sock").toString(), "--java", java, "--heap", "256m",
                "--jvm-opts", jvmOptions), env, null, 180);
        if (started.code != 0) {
            throw new IllegalStateException("pool did not start: " + started);
        }
        long pid = Long.parseLong(Files.readString(dir.resolve("pool.pid")).trim());
        return new Pool(dir, java, pid, env);
    }

    /** {@code jvmreuse run} with the given java-style arguments, environment additions and working directory. */
    Result run(List<String> javaArgs, Map<String, String> env, Path cwd) throws Exception {
        List<String> command = new ArrayList<>(List.of(CLIENT.toString(), "run", "-v"));
        command.addAll(javaArgs);
        return exec(command, withSocket(env), cwd, 120);
    }

    Result run(String... javaArgs) throws Exception {
        return run(List.of(javaArgs), Map.of(), null);
    }

    /** Runs a test program (from tests/target/test-classes) in the pool. */
    Result program(String simpleName, String... args) throws Exception {
        List<String> javaArgs = new ArrayList<>(List.of("-cp", PROGRAMS, "org.jvmreuse.it.programs." + simpleName));
        javaArgs.addAll(List.of(args));
        return run(javaArgs, Map.of(), null);
    }

    /**
     * Starts a client in the background. Signals ignored by whoever started the test JVM (a
     * background shell ignores INT and QUIT) stay ignored in its children, and the client, like
     * java, leaves ignored signals alone; the client gets default dispositions here so that the
     * signal tests mean the same wherever they run.
     */
    Process startProgram(String simpleName, String... args) throws IOException {
        return startProgram(List.of(), simpleName, args);
    }

    /** ... with options of the client's own before the java options (e.g. --kind=am). */
    Process startProgram(List<String> clientOptions, String simpleName, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of("env", "--default-signal=INT,QUIT,TERM,HUP",
                CLIENT.toString(), "run", "-v"));
        command.addAll(clientOptions);
        command.addAll(List.of("-cp", PROGRAMS, "org.jvmreuse.it.programs." + simpleName));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().putAll(withSocket(Map.of()));
        return builder.start();
    }

    String status() throws Exception {
        Result result = exec(List.of(CLIENT.toString(), "status"), withSocket(Map.of()), null, 30);
        if (result.code != 0) {
            throw new IllegalStateException("status failed: " + result);
        }
        return result.out;
    }

    /** {@code jvmreuse status --json}: one line of JSON. */
    String statusJsonText() throws Exception {
        Result result = exec(List.of(CLIENT.toString(), "status", "--json"), withSocket(Map.of()), null, 30);
        if (result.code != 0 || result.out.strip().lines().count() != 1) {
            throw new IllegalStateException("status --json failed: " + result);
        }
        return result.out.strip();
    }

    /** {@code jvmreuse status --json}, parsed by a real JSON parser (Jackson, from Hadoop's dependencies). */
    JsonNode statusJson() throws Exception {
        return new ObjectMapper().readTree(statusJsonText());
    }

    /** Polls status until it contains {@code text}. */
    void awaitStatus(String text, long timeoutMillis) throws Exception {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        String last = "";
        while (System.currentTimeMillis() < deadline) {
            last = status();
            if (last.contains(text)) {
                return;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("status never showed '" + text + "':\n" + last + logTails());
    }

    String slotLog(int rank) throws IOException {
        return Files.readString(dir.resolve("logs/slot-rank" + rank + ".log"));
    }

    /**
     * The last {@link #LOG_TAIL_LINES} lines of each of the pool's logs (manager, slots,
     * mpirun), for an assertion's message: the directory is gone once the pool is closed.
     */
    String logTails() {
        StringBuilder tails = new StringBuilder();
        try (Stream<Path> logs = Files.list(dir.resolve("logs"))) {
            for (Path log : logs.filter(f -> f.toString().endsWith(".log")).sorted().toList()) {
                List<String> lines = Files.readAllLines(log, StandardCharsets.ISO_8859_1);
                tails.append("\n--- ").append(log.getFileName()).append(" (last lines)\n");
                lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size())
                        .forEach(line -> tails.append(line).append('\n'));
            }
        } catch (IOException e) {
            tails.append("\n(the pool's logs cannot be read: ").append(e).append(")\n");
        }
        return tails.toString();
    }

    private Map<String, String> withSocket(Map<String, String> env) {
        Map<String, String> all = new java.util.HashMap<>(env);
        all.put("JVMREUSE_SOCKET", socket.toString());
        return all;
    }

    @Override
    public void close() throws Exception {
        stop(true);
        ProcessHandle.of(mpirunPid).ifPresent(p -> {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        });
        if (Files.exists(dir)) {
            try (var files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }

    /** jvmreuse-pool stop (--now if {@code now}) with the launch's environment. */
    Result stop(boolean now) throws Exception {
        List<String> command = new ArrayList<>(List.of(LAUNCHER.toString(), "stop", "--socket", socket.toString()));
        if (now) {
            command.add("--now");
        }
        return exec(command, launchEnv, null, 60);
    }

    long mpirunPid() {
        return mpirunPid;
    }

    /**
     * SIGKILLs the slot process under a long run, as a crash would, and checks what the run's
     * client must see (exit 137 and why); returns once the pool shows the slot retired. The
     * slot is killed once the client has heard the run start (its -v line): a slot that dies
     * before that is one the client rightly falls back from, into a new JVM.
     */
    void killSlotUnderARun() throws Exception {
        Process client = startProgram("Exiter", "sleep", "600000");
        try {
            BufferedReader clientErr = new BufferedReader(new InputStreamReader(client.getErrorStream(), StandardCharsets.UTF_8));
            String heard = CompletableFuture.supplyAsync(() -> linesUpTo(clientErr, "running in slot")).get(30, TimeUnit.SECONDS);
            assertTrue(heard.contains("running in slot"), "the client never heard its run start: " + heard);
            ProcessHandle.of(busySlotPid(status())).orElseThrow().destroyForcibly();
            assertTrue(client.waitFor(30, TimeUnit.SECONDS), "the client was not told");
            String err = heard + clientErr.lines().collect(Collectors.joining("\n"));
            assertEquals(137, client.exitValue(), err);
            assertTrue(err.contains("the pool slot running this program died"), err);
        } finally {
            client.destroyForcibly();
        }
        awaitStatus("retired 1", 10_000);
    }

    /** The lines read up to and with the first that contains {@code text}, or up to the end. */
    private static String linesUpTo(BufferedReader reader, String text) {
        StringBuilder lines = new StringBuilder();
        try {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                lines.append(line).append('\n');
                if (line.contains(text)) {
                    break;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return lines.toString();
    }

    private static long busySlotPid(String status) {
        for (String line : status.split("\n")) {
            if (line.startsWith("slot ") && line.contains(" busy busy=1")) {
                return Long.parseLong(line.replaceAll(".* pid (\\d+) .*", "$1"));
            }
        }
        throw new AssertionError("no busy slot in\n" + status);
    }

    boolean mpirunAlive() {
        return running(mpirunPid);
    }

    /**
     * Whether a process runs. ProcessHandle.isAlive also counts a process that has exited but
     * was not yet reaped (a zombie; a machine's init may reap reparented processes late).
     */
    public static boolean running(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            return stat.charAt(stat.lastIndexOf(')') + 2) != 'Z';
        } catch (IOException gone) {
            return false;
        }
    }

    List<ProcessHandle> poolProcesses() {
        return ProcessHandle.of(mpirunPid).map(p -> p.descendants().toList()).orElse(List.of());
    }

    public record Result(int code, String out, String err) {
        /**
         * stderr without the client's "running in slot" line: the slot starts the program as it
         * reports {@code started}, so that line can land anywhere in what the program writes.
         */
        public String programErr() {
            return err.replaceAll("jvmreuse: running in slot \\d+ \\(rank \\d+, pid \\d+\\)\n", "");
        }

        @Override
        public String toString() {
            return "exit " + code + "\n--- stdout\n" + out + "--- stderr\n" + err;
        }
    }

    /** Runs the workloads' command line tool ({@code org.jvmreuse.workloads.Main}) with {@code args}, in a new JVM. */
    public static Result workloads(String... args) throws Exception {
        Path jar;
        try (Stream<Path> s = Files.list(REPO.resolve("workloads/target"))) {
            jar = s.filter(p -> p.getFileName().toString().matches("workloads-.*\\.jar")
                    && !p.getFileName().toString().contains("sources")).findFirst().orElseThrow();
        }
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", jar + ":" + REPO.resolve("workloads/target/lib") + "/*", "org.jvmreuse.workloads.Main"));
        command.addAll(List.of(args));
        return exec(command, Map.of(), null, 300);
    }

    public static Result exec(List<String> command, Map<String, String> env, Path cwd, long timeoutSeconds) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().putAll(env);
        builder.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        if (cwd != null) {
            builder.directory(cwd.toFile());
        }
        Path out = Files.createTempFile("jrt-out", ".txt");
        Path err = Files.createTempFile("jrt-err", ".txt");
        builder.redirectOutput(out.toFile()).redirectError(err.toFile());
        Process process = builder.start();
        try {
            if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
                throw new AssertionError("timed out after " + timeoutSeconds + " s: " + command);
            }
            return new Result(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }
}
