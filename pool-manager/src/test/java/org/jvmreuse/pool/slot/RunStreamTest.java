package org.jvmreuse.pool.slot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jvmreuse.pool.os.PeerFiles;
import org.jvmreuse.pool.protocol.FileKey;
import org.jvmreuse.pool.protocol.StreamPath;

/** A run's stream is opened only if the path leads to the file the client's descriptor names. */
class RunStreamTest {
    @TempDir
    Path dir;

    @BeforeAll
    static void nativeLibrary() {
        System.setProperty("jvmreuse.native", Path.of("target/native/libjvmreuse.so").toAbsolutePath().toString());
    }

    private static FileKey key(Path path) throws IOException {
        var attributes = Files.readAttributes(path, "unix:dev,ino");
        return new FileKey((Long) attributes.get("dev"), (Long) attributes.get("ino"));
    }

    @Test
    void theClientsOwnFileOpens() throws Exception {
        Path mine = Files.createFile(dir.resolve("mine"));
        int fd = RunStream.open(new StreamPath(mine.toString(), key(mine)), true, "stdout");
        assertTrue(fd > 2, "a descriptor of its own: " + fd);
        assertEquals(0, PeerFiles.close(fd));
    }

    @Test
    void anotherProcesssStreamAtTheClientsPathIsRefused() throws Exception {
        Path mine = Files.createFile(dir.resolve("mine"));
        Path theirs = dir.resolve("theirs");
        Process stranger = new ProcessBuilder("sleep", "60").redirectOutput(theirs.toFile()).start();
        try {
            String path = "/proc/" + stranger.pid() + "/fd/1";
            Refused refused = assertThrows(Refused.class,
                    () -> RunStream.open(new StreamPath(path, key(mine)), true, "stdout"));
            assertEquals("the run's stdout, " + path + ", is not the client's own (device:inode " + key(theirs)
                    + " here, " + key(mine) + " for the client; a client in another PID namespace?)", refused.getMessage());
        } finally {
            stranger.destroyForcibly().waitFor();
        }
        assertEquals(0, Files.size(theirs));
    }

    @Test
    void aClientsFileThatIsNotThereIsNotMade() {
        Path missing = dir.resolve("missing");
        IOException e = assertThrows(IOException.class,
                () -> RunStream.open(new StreamPath(missing.toString(), new FileKey(1, 2)), true, "stderr"));
        assertEquals("cannot open for writing " + missing + ": No such file or directory", e.getMessage());
        assertFalse(Files.exists(missing));
    }

    /**
     * A terminal handed as a stream must not become the slot's controlling terminal, which
     * opening it for reading would make it in a session leader that has none (python3 makes such
     * a session, with a terminal that no session holds, for a probe JVM).
     */
    @Test
    void aTerminalDoesNotBecomeTheControllingTerminal() throws Exception {
        String session = String.join("\n", "import os, sys",
                "master, slave = os.openpty()",
                "path = os.ttyname(slave)",
                "os.close(slave)",
                "pid = os.fork()",
                "if pid == 0:",
                "    os.setsid()",
                "    os.execv(sys.argv[1], sys.argv[1:] + [path])",
                "sys.exit(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))");
        String java = ProcessHandle.current().info().command().orElseThrow();
        Process probe = new ProcessBuilder("python3", "-c", session, java, "-cp", System.getProperty("java.class.path"),
                "-Djvmreuse.native=" + System.getProperty("jvmreuse.native"), ControllingTerminalProbe.class.getName())
                .redirectErrorStream(true).start();
        String output = new String(probe.getInputStream().readAllBytes()).strip();
        assertEquals(0, probe.waitFor(), output);
        assertEquals("0", output, "tty_nr after opening the terminal");
    }

    @Test
    void theKeysAreCompared() {
        StreamPath stream = new StreamPath("/proc/7/fd/0", new FileKey(5, 9));
        assertNull(RunStream.mismatch("stdin", stream, new FileKey(5, 9)));
        assertEquals("the run's stdin, /proc/7/fd/0, is not the client's own (device:inode 5:8 here, 5:9 for the "
                + "client; a client in another PID namespace?)", RunStream.mismatch("stdin", stream, new FileKey(5, 8)));
        assertEquals("the run's stdin, /proc/7/fd/0, is not the client's own (device:inode 6:9 here, 5:9 for the "
                + "client; a client in another PID namespace?)", RunStream.mismatch("stdin", stream, new FileKey(6, 9)));
        assertEquals("the run's stdin, /proc/7/fd/0, is not the client's own (device:inode unknown here, 5:9 for the "
                + "client; a client in another PID namespace?)", RunStream.mismatch("stdin", stream, null));
    }
}
