package org.jvmreuse.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The client trusts no socket it did not verify, the pool makes no directory it does not own,
 * and a client whose pool goes away before its run started runs the program in a new JVM.
 * Another local user is played by uid 65534 (the tests run as root).
 */
class TrustTest {
    private static final int OTHER_UID = 65534;
    /**
     * A fake pool that answers every run with `started` and `exit 0`, as another user's listener
     * could: a single-file Java program, so that it can run as another user.
     */
    private static final String FAKE_POOL = String.join("\n",
            "import java.net.*; import java.nio.*; import java.nio.channels.*;",
            "public class FakePool {",
            "    public static void main(String[] args) throws Exception {",
            "        for (String path : args) {",
            "            ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);",
            "            server.bind(UnixDomainSocketAddress.of(path));",
            "            new Thread(() -> serve(server)).start();",
            "        }",
            "        System.out.println(\"listening\");",
            "    }",
            "    static void serve(ServerSocketChannel server) {",
            "        while (true) {",
            "            try (SocketChannel c = server.accept()) {",
            "                ByteBuffer header = ByteBuffer.allocate(4);",
            "                while (header.hasRemaining() && c.read(header) >= 0) { }",
            "                ByteBuffer request = ByteBuffer.allocate(header.flip().getInt());",
            "                while (request.hasRemaining() && c.read(request) >= 0) { }",
            "                for (String reply : new String[] {\"started\\0slot=0\\0rank=1\\0pid=1\\0reuse=0\\0\", \"exit\\0code=0\\0\"}) {",
            "                    byte[] bytes = reply.getBytes();",
            "                    c.write(ByteBuffer.allocate(4 + bytes.length).putInt(bytes.length).put(bytes).flip());",
            "                }",
            "            } catch (Exception refusedByTheClient) { }",
            "        }",
            "    }",
            "}",
            "");

    private Path tmp;
    private final List<Process> fakes = new ArrayList<>();

    @BeforeEach
    void makeTmp() throws Exception {
        tmp = Files.createTempDirectory(Path.of("/tmp"), "jrt-trust-");
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    @AfterEach
    void cleanUp() throws Exception {
        for (Process fake : fakes) {
            fake.destroyForcibly().waitFor();
        }
        try (var files = Files.walk(tmp)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        }
    }

    private Path privateDir(String name) throws Exception {
        Path dir = Files.createDirectory(tmp.resolve(name));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        return dir;
    }

    private Path nobodysDir(String name) throws Exception {
        Path dir = Files.createDirectory(tmp.resolve(name));
        Files.setAttribute(dir, "unix:uid", OTHER_UID);
        return dir;
    }

    /** Starts the fake pool as user nobody, listening at each of {@code sockets}. */
    private void startFakePool(Path... sockets) throws Exception {
        Path source = tmp.resolve("FakePool.java");
        Files.writeString(source, FAKE_POOL);
        List<String> command = new ArrayList<>(List.of("setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups",
                Jdks.DEFAULT, source.toString()));
        for (Path socket : sockets) {
            command.add(socket.toString());
        }
        Process fake = new ProcessBuilder(command).redirectErrorStream(true).start();
        fakes.add(fake);
        String line = new BufferedReader(new InputStreamReader(fake.getInputStream(), StandardCharsets.UTF_8)).readLine();
        assertEquals("listening", line, "the fake pool did not start");
    }

    private static Pool.Result echo3(Path socket) throws Exception {
        return Pool.exec(List.of(Pool.CLIENT.toString(), "run", "-v", "-cp", Pool.PROGRAMS, "org.jvmreuse.it.programs.Echo", "3"),
                Map.of("JVMREUSE_SOCKET", socket.toString()), null, 60);
    }

    private static void assertRanInANewJvm(Pool.Result result, String why) {
        assertEquals(3, result.code(), result.toString());
        assertEquals("echo 3\n", result.out(), result.toString());
        assertTrue(result.err().contains(why) && result.err().contains("starting a new JVM"), result.toString());
    }

    @Test
    void theClientRefusesASocketItCannotTrustAndRunsTheProgramInANewJvm() throws Exception {
        // Another user's directory at the pool's path, with their listener in it; a symlink of
        // theirs at the pool's path, to their directory with a listener; their listener moved
        // into our own private directory, its socket given to us (only the peer's uid tells).
        Path theirs = nobodysDir("theirs");
        Path target = nobodysDir("target");
        Path moved = nobodysDir("moved");
        startFakePool(theirs.resolve("pool.sock"), target.resolve("pool.sock"), moved.resolve("pool.sock"));
        Path link = Files.createSymbolicLink(tmp.resolve("link"), target);
        Files.setAttribute(link, "unix:uid", OTHER_UID, LinkOption.NOFOLLOW_LINKS);
        Path ours = privateDir("ours");
        Files.move(moved.resolve("pool.sock"), ours.resolve("pool.sock"), StandardCopyOption.ATOMIC_MOVE);
        Files.setAttribute(ours.resolve("pool.sock"), "unix:uid", 0, LinkOption.NOFOLLOW_LINKS);

        assertRanInANewJvm(echo3(theirs.resolve("pool.sock")), "belongs to uid " + OTHER_UID + ", not to us (uid 0)");
        assertRanInANewJvm(echo3(link.resolve("pool.sock")), "is a symbolic link; not trusting it");
        assertRanInANewJvm(echo3(ours.resolve("pool.sock")), "runs as uid " + OTHER_UID + ", not as us");
    }

    @Test
    void aPoolRefusesADirectoryThatIsNotItsOwnAndTouchesNothingThere() throws Exception {
        Path theirs = Files.createDirectory(tmp.resolve("theirs"));
        Files.setAttribute(theirs, "unix:uid", OTHER_UID);
        Path victim = Files.createDirectory(tmp.resolve("victim"));
        Files.setPosixFilePermissions(victim, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path link = Files.createSymbolicLink(tmp.resolve("link"), victim);

        assertRefused(theirs.resolve("pool.sock"), "belongs to uid " + OTHER_UID);
        assertRefused(link.resolve("pool.sock"), "is a symbolic link");
        assertEquals("rwxr-xr-x", PosixFilePermissions.toString(Files.getPosixFilePermissions(victim)), "the victim's mode");
        for (Path dir : List.of(theirs, victim)) {
            try (var entries = Files.list(dir)) {
                assertEquals(List.of(), entries.toList(), "the pool wrote into " + dir);
            }
        }
    }

    private static void assertRefused(Path socket, String why) throws Exception {
        Pool.Result start = Pool.exec(List.of(Pool.LAUNCHER.toString(), "start", "--slots", "1", "--socket", socket.toString(),
                "--java", Jdks.DEFAULT, "--heap", "256m"), Map.of(), null, 180);
        if (start.code() == 0) {
            Pool.exec(List.of(Pool.LAUNCHER.toString(), "stop", "--now", "--socket", socket.toString()), Map.of(), null, 60);
        }
        assertNotEquals(0, start.code(), start.toString());
        assertTrue(start.err().contains(why), start.toString());
    }

    @Test
    void whenTheManagerDiesAQueuedClientRunsItsProgramInANewJvmAndARunningOneIsToldWhy() throws Exception {
        try (Pool pool = Pool.start(1)) {
            Path runningErr = tmp.resolve("running.err");
            ProcessBuilder running = new ProcessBuilder(Pool.CLIENT.toString(), "run", "-v", "-cp", Pool.PROGRAMS,
                    "org.jvmreuse.it.programs.Exiter", "sleep", "600000")
                    .redirectOutput(new File("/dev/null")).redirectError(runningErr.toFile());
            running.environment().put("JVMREUSE_SOCKET", pool.socket.toString());
            Process runningClient = running.start();
            try {
                // Started as the client sees it (its -v line comes with STARTED): a slot that is busy
                // before the client heard STARTED is a run the client still falls back from.
                long until = System.currentTimeMillis() + 15_000;
                while (!(Files.exists(runningErr) && Files.readString(runningErr).contains("running in slot"))) {
                    assertTrue(System.currentTimeMillis() < until, "the running client did not start in the slot");
                    Thread.sleep(50);
                }
                killManagerWithOneRunningAndOneQueued(pool, runningClient, runningErr);
            } finally {
                runningClient.destroyForcibly();
            }
        }
    }

    /** Kills the pool's manager while {@code runningClient}'s run is in the slot and another client's waits in the queue. */
    private static void killManagerWithOneRunningAndOneQueued(Pool pool, Process runningClient, Path runningErr) throws Exception {
        CompletableFuture<Pool.Result> queued = CompletableFuture.supplyAsync(() -> {
            try {
                return echo3(pool.socket);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        pool.awaitStatus("queued 1", 15_000);

        Set<Long> slotPids = slotPids(pool.status());
        ProcessHandle manager = pool.poolProcesses().stream()
                .filter(p -> !slotPids.contains(p.pid()) && p.info().commandLine().orElse("").contains("PoolMain"))
                .findFirst().orElseThrow();
        manager.destroyForcibly();

        assertRanInANewJvm(queued.get(60, TimeUnit.SECONDS), "the pool closed the connection before the run started");
        assertTrue(runningClient.waitFor(30, TimeUnit.SECONDS), "the running client was not told");
        String err = Files.readString(runningErr);
        assertEquals(1, runningClient.exitValue(), err);
        assertTrue(err.contains("lost the connection to the pool during the run"), err);
        assertFalse(err.contains("starting a new JVM"), err);
    }

    @Test
    void fifoDirectoriesGoAwayWithTheirClientAndAStuckStartEndsInANewJvm() throws Exception {
        try (Pool pool = Pool.start(1)) {
            // stdout a regular file not at its end: relayed through a FIFO
            Path out = tmp.resolve("out.txt");
            Files.writeString(out, "previous contents\n");
            ProcessBuilder relayed = new ProcessBuilder("bash", "-c", "exec 1<>\"$0\"; exec \"$@\"", out.toString(),
                    Pool.CLIENT.toString(), "run", "-cp", Pool.PROGRAMS, "org.jvmreuse.it.programs.Exiter", "sleep", "600000")
                    .redirectError(new File("/dev/null"));
            relayed.environment().put("JVMREUSE_SOCKET", pool.socket.toString());
            Process client = relayed.start();
            pool.awaitStatus("busy 1", 15_000);
            assertEquals(1, fifoDirs(pool, client.pid()).size(), "the client's FIFO directory");
            Pool.exec(List.of("kill", "-USR1", Long.toString(client.pid())), Map.of(), null, 10);
            assertTrue(client.waitFor(10, TimeUnit.SECONDS));
            assertEquals(128 + 10, client.exitValue(), "ended by SIGUSR1, as java would be");
            assertEquals(List.of(), fifoDirs(pool, client.pid()), "the FIFO directory of a client ended by a signal");
            pool.awaitStatus("free 1,", 15_000);

            // a directory left by a SIGKILLed client long ago is swept by the next client; a recent one stays
            long deadPid = unusedPid();
            Path stale = Files.createDirectory(pool.dir.resolve("c" + deadPid + "-Ab12Cd"));
            Pool.exec(List.of("mkfifo", stale.resolve("out").toString()), Map.of(), null, 10);
            Files.setLastModifiedTime(stale, FileTime.fromMillis(System.currentTimeMillis() - 3_600_000));
            Path recent = Files.createDirectory(pool.dir.resolve("c" + deadPid + "-Ef34Gh"));

            Process busy = pool.startProgram("Exiter", "sleep", "600000");
            pool.awaitStatus("busy 1", 15_000);
            Pool.Result impatient = Pool.exec(List.of(Pool.CLIENT.toString(), "run", "-v", "--wait-ms", "60000",
                    "--start-timeout-ms", "500", "-cp", Pool.PROGRAMS, "org.jvmreuse.it.programs.Echo", "3"),
                    Map.of("JVMREUSE_SOCKET", pool.socket.toString()), null, 30);
            // The client asks the pool to cancel instead of closing, and starts a new JVM only once the
            // pool has said the run never starts (a slot could be starting it just then).
            assertRanInANewJvm(impatient, "the pool did not start the run within 500 ms (the client's start "
                    + "deadline passed while the run was queued)");
            assertFalse(Files.exists(stale, LinkOption.NOFOLLOW_LINKS), "stale FIFO directory left");
            assertTrue(Files.isDirectory(recent), "a recent FIFO directory was swept");
            busy.destroy();
        }
    }

    private static List<Path> fifoDirs(Pool pool, long clientPid) throws Exception {
        try (var entries = Files.list(pool.dir)) {
            return entries.filter(p -> p.getFileName().toString().startsWith("c" + clientPid + "-")).toList();
        }
    }

    private static long unusedPid() {
        long pid = 999_999;
        while (Files.exists(Path.of("/proc/" + pid))) {
            pid--;
        }
        return pid;
    }

    private static Set<Long> slotPids(String status) {
        Set<Long> pids = new HashSet<>();
        Matcher m = Pattern.compile("(?m)^slot \\d+: rank \\d+ pid (\\d+) ").matcher(status);
        while (m.find()) {
            pids.add(Long.parseLong(m.group(1)));
        }
        assertFalse(pids.isEmpty(), status);
        return pids;
    }
}
