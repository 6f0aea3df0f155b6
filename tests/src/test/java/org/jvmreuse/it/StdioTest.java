package org.jvmreuse.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.EOFException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Through a shell, byte for byte: what `jvmreuse run` prints is what `java` prints. */
class StdioTest extends OneSlotPoolTest {
    private static String viaShell(String launcher, String script, Path dir) throws Exception {
        String command = script.replace("LAUNCH", launcher + " -cp " + Pool.PROGRAMS + " org.jvmreuse.it.programs.StdioMix");
        Pool.Result result = Pool.exec(List.of("bash", "-c", command), Map.of("JVMREUSE_SOCKET", pool.socket.toString()),
                dir, 60);
        assertEquals(0, result.code(), result.toString());
        return result.out();
    }

    private static void assertSameAsJava(String script, Path dir) throws Exception {
        String java = viaShell(Jdks.DEFAULT, script, dir);
        String pooled = viaShell(Pool.CLIENT + " run", script, dir);
        assertEquals(java, pooled, "for: " + script);
        assertTrue(pooled.contains("out 2"), pooled);
    }

    @Test
    void interleavedOutputAndPipedInput(@TempDir Path dir) throws Exception {
        assertSameAsJava("printf 'a\\nb\\n' | LAUNCH 2>&1", dir);
    }

    @Test
    void aFileTheShellGoesOnWritingTo(@TempDir Path dir) throws Exception {
        assertSameAsJava("rm -f f; { echo before; LAUNCH </dev/null; echo after; } >f 2>&1; cat f", dir);
        assertSameAsJava("rm -f f; echo old >f; LAUNCH </dev/null >>f 2>/dev/null; echo appended >>f; cat f", dir);
        Files.deleteIfExists(dir.resolve("f"));
    }

    /** fstat's device and inode of a file, as the client sends them ({@code stdout_key}...). */
    private static String key(Path file) throws Exception {
        Map<String, Object> attributes = Files.readAttributes(file, "unix:dev,ino");
        return Long.toUnsignedString((Long) attributes.get("dev")) + ":" + attributes.get("ino");
    }

    /** The replies but `queued` to a run that writes to {@code stdout}, claimed to be the client's {@code key}. */
    private static List<List<String>> replies(String stdout, String key) throws Exception {
        List<List<String>> replies = new ArrayList<>();
        try (RawClient client = new RawClient(pool.socket)) {
            client.send("run", "cwd=/tmp", "java_arg=-cp", "java_arg=" + Pool.PROGRAMS,
                    "java_arg=org.jvmreuse.it.programs.StdioMix",
                    "stdout=" + stdout, "stdout_key=" + key, "stderr=" + stdout, "stderr_key=" + key);
            while (true) {
                List<String> reply = client.read();
                if (!reply.get(0).equals("queued")) {
                    replies.add(reply);
                }
            }
        } catch (EOFException closedByTheManager) {
            return replies;
        }
    }

    @Test
    void aStreamThatIsNotTheClientsIsRefusedBeforeTheRunStartsAndNothingIsWritten(@TempDir Path dir) throws Exception {
        Path mine = Files.createFile(dir.resolve("mine"));
        Path theirs = dir.resolve("theirs");
        assertEquals(List.of(List.of("fallback", "reason=the run's stdout, " + mine + ", is not the client's own "
                + "(device:inode " + key(mine) + " here, 1:2 for the client; a client in another PID namespace?)")),
                replies(mine.toString(), "1:2"));
        Process stranger = new ProcessBuilder("sleep", "120").redirectOutput(theirs.toFile()).start();
        try {
            String path = "/proc/" + stranger.pid() + "/fd/1";
            assertEquals(List.of(List.of("fallback", "reason=the run's stdout, " + path + ", is not the client's own "
                    + "(device:inode " + key(theirs) + " here, " + key(mine) + " for the client; a client in another "
                    + "PID namespace?)")), replies(path, key(mine)));
        } finally {
            stranger.destroyForcibly().waitFor();
        }
        assertEquals(0, Files.size(mine));
        assertEquals(0, Files.size(theirs));
        List<List<String>> own = replies(mine.toString(), key(mine));
        assertEquals(List.of("started", "exit"), own.stream().map(reply -> reply.get(0)).toList(), own.toString());
        assertTrue(Files.readString(mine).contains("out 2"), "the client's own file is written");
    }

    /**
     * A client in another PID namespace (a container) hands its streams as /proc/<its pid>/fd/N,
     * which to the slot is the process with that pid here: the slot refuses and the client runs
     * the program in a new JVM. The client is given the pid of a process of ours (ns_last_pid).
     */
    @Test
    void aClientInAnotherPidNamespaceNeverWritesIntoTheProcessWithItsPidHere(@TempDir Path dir) throws Exception {
        assertEquals("root", System.getProperty("user.name"), "unshare --pid and ns_last_pid need root");
        Path theirs = dir.resolve("theirs");
        Process stranger = new ProcessBuilder("sleep", "120").redirectOutput(theirs.toFile()).redirectErrorStream(true)
                .start();
        Pool.Result result;
        try {
            String script = "echo $((" + stranger.pid() + " - 1)) >/proc/sys/kernel/ns_last_pid && " + Pool.CLIENT
                    + " run -cp " + Pool.PROGRAMS + " org.jvmreuse.it.programs.StdioMix; exit $?";
            result = Pool.exec(List.of("unshare", "--pid", "--fork", "bash", "-c", script),
                    Map.of("JVMREUSE_SOCKET", pool.socket.toString(), "JVMREUSE_VERBOSE", "1"), dir, 60);
        } finally {
            stranger.destroyForcibly().waitFor();
        }
        assertEquals(0, result.code(), result.toString());
        assertEquals("out 0\nout 1\nout 2\n", result.out(), result.toString());
        assertTrue(result.err().contains("the run's stdout, /proc/" + stranger.pid() + "/fd/1, is not the client's own"),
                result.toString());
        assertEquals(0, Files.size(theirs), "nothing written into the other process's stdout");
    }
}
