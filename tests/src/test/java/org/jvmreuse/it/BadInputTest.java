package org.jvmreuse.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Every bad request gets a clear answer, and the pool keeps serving afterwards. */
class BadInputTest extends OneSlotPoolTest {
    @AfterEach
    void poolStillServes() throws Exception {
        Pool.Result result = pool.program("StaticCounter");
        assertEquals(0, result.code(), result.toString());
        assertEquals("1\n", result.out());
        assertTrue(result.err().contains("running in slot 0"), result.err());
    }

    private static String runsCompleted(String status) {
        return status.replaceAll("(?s).*runs: completed (\\d+),.*", "$1");
    }

    private static List<String> reply(byte[] payload, int declaredLength) throws Exception {
        try (RawClient client = new RawClient(pool.socket)) {
            client.sendRaw(declaredLength, payload);
            return client.read();
        }
    }

    private static List<String> reply(String... strings) throws Exception {
        byte[] payload = RawClient.payload(strings);
        return reply(payload, payload.length);
    }

    private static String[] run(String... extra) {
        List<String> fields = new java.util.ArrayList<>(List.of("run", "cwd=/tmp", "java_arg=-cp", "java_arg=" + Pool.PROGRAMS,
                "java_arg=org.jvmreuse.it.programs.StaticCounter", "stdout=/dev/null", "stderr=/dev/null"));
        fields.addAll(List.of(extra));
        return fields.toArray(new String[0]);
    }

    @Test
    void malformedFrameIsRefused() throws Exception {
        byte[] notTerminated = "run\0java_arg=X".getBytes();
        assertEquals(List.of("error", "message=malformed frame: payload must be NUL-terminated strings"),
                reply(notTerminated, notTerminated.length));
        assertEquals(List.of("error", "message=malformed field 'no-equals-sign': expected key=value"),
                reply("run", "no-equals-sign"));
    }

    /**
     * The manager runs no user code: its heap is its own (job-scripts/lib/core/pool.sh, 128m), not a
     * slot's, so a flood of malformed requests cannot grow it to a slot's size (10,000 of them
     * took a manager with a slot's 1g heap from 81 MB to 213 MB resident).
     */
    @Test
    void theManagerHasAHeapOfItsOwnAndMalformedRequestsLeaveItSmall() throws Exception {
        String status = pool.status();
        ProcessHandle manager = ProcessHandle.of(pool.mpirunPid()).orElseThrow().descendants()
                .filter(p -> p.info().command().orElse("").endsWith("/java")
                        && p.info().commandLine().orElse("").contains("org.jvmreuse.pool.PoolMain"))
                .filter(p -> !status.contains(" pid " + p.pid() + " ")).findFirst().orElseThrow();
        assertEquals("128m", lastOption(manager.pid(), "-Xmx"), "the manager's heap (the slots' is 256m here)");
        long before = residentKib(manager.pid());
        byte[] notTerminated = "run\0java_arg=X".getBytes();
        for (int i = 0; i < 10_000; i++) {
            assertEquals("error", reply(notTerminated, notTerminated.length).get(0));
        }
        long after = residentKib(manager.pid());
        System.out.println("manager resident: " + before / 1024 + " MB before 10,000 malformed requests, "
                + after / 1024 + " MB after");
        assertTrue(after - before < 128 * 1024, "10,000 malformed requests grew the manager from " + before / 1024
                + " MB to " + after / 1024 + " MB resident");
    }

    /** The value of the last {@code option} on the command line of {@code pid}: the one the JVM takes. */
    private static String lastOption(long pid, String option) throws Exception {
        String value = null;
        for (String arg : Files.readString(Path.of("/proc/" + pid + "/cmdline")).split("\0")) {
            if (arg.startsWith(option)) {
                value = arg.substring(option.length());
            }
        }
        return value;
    }

    private static long residentKib(long pid) throws Exception {
        return Files.readAllLines(Path.of("/proc/" + pid + "/status")).stream().filter(l -> l.startsWith("VmRSS:"))
                .mapToLong(l -> Long.parseLong(l.replaceAll("\\D", ""))).findFirst().orElseThrow();
    }

    @Test
    void oversizedFrameIsRefusedWithoutReadingIt() throws Exception {
        List<String> answer = reply(new byte[16], 2 << 20);
        assertEquals("error", answer.get(0));
        assertEquals("message=frame length 2097152 is outside 1..1048576 bytes", answer.get(1));
    }

    @Test
    void unknownRequestAndMissingFieldsAreNamed() throws Exception {
        assertEquals(List.of("error", "message=unknown request type 'frobnicate'"), reply("frobnicate"));
        assertEquals(List.of("error", "message='run' request lacks the required field 'java_arg'"),
                reply("run", "cwd=/tmp"));
        assertEquals(List.of("error", "message=cwd must be an absolute path, got 'relative'"),
                reply("run", "cwd=relative", "java_arg=X"));
        assertEquals(List.of("error", "message=wait_ms must be a whole number of milliseconds >= 0, got 'soon'"),
                reply(run("wait_ms=soon")));
        assertEquals(List.of("error", "message=malformed env 'NOVALUE': expected NAME=VALUE"), reply(run("env=NOVALUE")));
        assertEquals(List.of("error", "message='signal' is only valid on the connection of a running 'run'"),
                reply("signal", "sig=15"));
    }

    @Test
    void unknownMainClassAndMissingClassPathEntriesBehaveLikeJava() throws Exception {
        Pool.Result missing = pool.run("-cp", "/no/such/dir:" + Pool.PROGRAMS, "org.jvmreuse.it.programs.NoSuchMain");
        assertEquals(1, missing.code(), missing.toString());
        assertTrue(missing.programErr().contains("Error: Could not find or load main class org.jvmreuse.it.programs.NoSuchMain\n"
                + "Caused by: java.lang.ClassNotFoundException: org.jvmreuse.it.programs.NoSuchMain\n"), missing.err());

        Pool.Result skipsMissingEntry = pool.run("-cp", "/no/such/dir:" + Pool.PROGRAMS, "org.jvmreuse.it.programs.StaticCounter");
        assertEquals(0, skipsMissingEntry.code(), skipsMissingEntry.toString());
        assertEquals("1\n", skipsMissingEntry.out());
        assertTrue(pool.slotLog(1).contains("class path entry /no/such/dir does not exist"), "logged for the user");
    }

    @Test
    void unopenableOutputFallsBackWithTheReasonAndNothingRuns() throws Exception {
        try (RawClient client = new RawClient(pool.socket)) {
            client.send("run", "cwd=/tmp", "java_arg=-cp", "java_arg=" + Pool.PROGRAMS,
                    "java_arg=org.jvmreuse.it.programs.StaticCounter",
                    "stdout=/no/such/dir/out.txt", "stderr=/dev/null");
            List<String> reply = client.read();
            while (reply.get(0).equals("queued")) {
                reply = client.read();
            }
            assertEquals("fallback", reply.get(0), reply.toString());
            assertTrue(reply.get(1).startsWith("reason=the pool could not start the program: cannot open for writing "
                    + "/no/such/dir/out.txt"), reply.toString());
        }
    }

    @Test
    void clientThatDisconnectsMidRunFreesItsSlot() throws Exception {
        try (RawClient client = new RawClient(pool.socket)) {
            client.send("run", "cwd=/tmp", "java_arg=-cp", "java_arg=" + Pool.PROGRAMS,
                    "java_arg=org.jvmreuse.it.programs.Exiter",
                    "java_arg=sleep", "java_arg=600000", "stdout=/dev/null", "stderr=/dev/null");
            List<String> reply = client.read();
            while (!reply.get(0).equals("started")) {
                assertEquals("queued", reply.get(0), reply.toString());
                reply = client.read();
            }
            pool.awaitStatus("busy 1", 10_000);
        }
        pool.awaitStatus("free 1,", 15_000);
    }

    @Test
    void anotherUserIsRefused() throws Exception {
        assertEquals("root", System.getProperty("user.name"), "this test switches to user nobody, which needs root");
        // Layer 1: the socket's directory is private, so another user cannot even connect.
        Pool.Result denied = Pool.exec(List.of("setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups",
                Pool.CLIENT.toString(), "--socket", pool.socket.toString(), "status"), Map.of(), Path.of("/tmp"), 30);
        assertEquals(1, denied.code(), denied.toString());
        assertTrue(denied.err().contains(pool.socket.getParent() + " belongs to uid 0, not to us (uid 65534)"), denied.err());
        // Layer 2: even with the directory opened up, and a client that does not check it (the
        // real one refuses a directory that is not its own), the manager checks the peer's uid.
        Path dir = pool.socket.getParent();
        String before = pool.status(); // our own client refuses the directory while it is opened up
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx--x--x"));
        Files.setPosixFilePermissions(pool.socket, PosixFilePermissions.fromString("rw-rw-rw-"));
        try {
            Path source = Files.createTempFile(Path.of("/tmp"), "RawStatus", ".java");
            Files.writeString(source, String.join("\n",
                    "import java.net.*; import java.nio.*; import java.nio.channels.*;",
                    "public class RawStatus {",
                    "    public static void main(String[] args) throws Exception {",
                    "        SocketChannel c = SocketChannel.open(UnixDomainSocketAddress.of(args[0]));",
                    "        try {",
                    "            c.write(ByteBuffer.allocate(11).putInt(7).put(\"status\\0\".getBytes()).flip());",
                    "        } catch (java.io.IOException answeredFirst) {",
                    "            // the pool refuses before it reads, and may have closed already: its answer is here",
                    "        }",
                    "        java.io.DataInputStream in = new java.io.DataInputStream(Channels.newInputStream(c));",
                    "        System.out.println(new String(in.readNBytes(in.readInt())).replace('\\0', '|'));",
                    "    }",
                    "}"));
            Files.setPosixFilePermissions(source, PosixFilePermissions.fromString("rw-r--r--"));
            Pool.Result refused;
            try {
                refused = Pool.exec(List.of("setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups",
                        Jdks.DEFAULT, source.toString(), pool.socket.toString()), Map.of(), Path.of("/tmp"), 60);
            } finally {
                Files.delete(source);
            }
            assertEquals("error|message=user nobody may not use this pool: it runs programs only for its owner, root (uid 0)|\n",
                    refused.out(), refused.toString());
            // A run from another user never reaches a slot: it is refused or runs in the user's own new JVM.
            Pool.Result run = Pool.exec(List.of("setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups",
                    Pool.CLIENT.toString(), "--socket", pool.socket.toString(), "run", "-cp", Pool.PROGRAMS,
                    "org.jvmreuse.it.programs.StaticCounter"), Map.of(), Path.of("/tmp"), 60);
            assertTrue(!run.err().contains("running in slot"), run.toString());
        } finally {
            Files.setPosixFilePermissions(pool.socket, PosixFilePermissions.fromString("rw-------"));
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        }
        assertEquals(runsCompleted(before), runsCompleted(pool.status()), "no run reached the pool");
    }
}
