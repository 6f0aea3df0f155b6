package org.jvmreuse.pool.os;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The MPI shuffle's lent files: open, take out of another process (pidfd_getfd), pread into an array. */
class PeerFilesTest {
    private static final int ENOENT = 2;
    private static final int ESRCH = 3;
    private static final int EBADF = 9;
    private static final int EINVAL = 22;

    @TempDir
    Path dir;

    @BeforeAll
    static void nativeLibrary() {
        System.setProperty("jvmreuse.native", Path.of("target/native/libjvmreuse.so").toAbsolutePath().toString());
    }

    private Path file(int length) throws Exception {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) (i * 31 + 7);
        }
        return Files.write(dir.resolve("file.out"), bytes);
    }

    /** A file that another process holds open as descriptor 7 is taken here and read at an offset into an array. */
    @Test
    void aFileOpenInAnotherProcessIsTakenAndReadIntoAnArray() throws Exception {
        Path path = file(3 << 20);
        byte[] expected = Files.readAllBytes(path);
        Process holder = new ProcessBuilder("bash", "-c", "exec 7<\"$0\"; exec sleep 60", path.toString()).start();
        try {
            Path fd7 = Path.of("/proc/" + holder.pid() + "/fd/7");
            for (long deadline = System.nanoTime() + 10_000_000_000L; !Files.exists(fd7) && System.nanoTime() < deadline; ) {
                Thread.sleep(10);
            }
            int fd = PeerFiles.take(holder.pid(), 7);
            assertTrue(fd >= 0, "pidfd_getfd: errno " + -fd);
            try {
                var attributes = Files.readAttributes(path, "unix:dev,ino");
                assertArrayEquals(new long[] {(Long) attributes.get("dev"), (Long) attributes.get("ino")}, PeerFiles.key(fd),
                        "the descriptor taken names the file held open");
                byte[] into = new byte[(2 << 20) + 10];
                assertEquals(2 << 20, PeerFiles.read(fd, 1000, into, 10, 2 << 20));
                assertArrayEquals(Arrays.copyOfRange(expected, 1000, 1000 + (2 << 20)), Arrays.copyOfRange(into, 10, into.length));
                assertEquals(100, PeerFiles.read(fd, (3 << 20) - 100, into, 0, 1000), "fewer only at the end of the file");
                assertArrayEquals(Arrays.copyOfRange(expected, (3 << 20) - 100, 3 << 20), Arrays.copyOf(into, 100));
                assertEquals(0, PeerFiles.read(fd, 3 << 20, into, 0, 10), "nothing past it");
            } finally {
                assertEquals(0, PeerFiles.close(fd));
            }
            assertEquals(-EBADF, PeerFiles.take(holder.pid(), 9), "no descriptor 9 there");
        } finally {
            holder.destroy();
            holder.waitFor();
        }
    }

    @Test
    void openAndFailuresAreNegativeErrnos() throws Exception {
        Path path = file(100);
        int fd = PeerFiles.open(path.toString());
        assertTrue(fd >= 0, "open: errno " + -fd);
        byte[] into = new byte[50];
        assertEquals(50, PeerFiles.read(fd, 10, into, 0, 50));
        assertEquals(-EINVAL, PeerFiles.read(fd, 0, into, 40, 20), "past the end of the array");
        assertEquals(-EINVAL, PeerFiles.read(fd, -1, into, 0, 10), "a negative position");
        long[] key = PeerFiles.key(fd);
        Files.delete(path);
        assertArrayEquals(key, PeerFiles.key(fd), "the open file, also once its name is gone");
        assertEquals(0, PeerFiles.close(fd));
        assertEquals(null, PeerFiles.key(fd), "closed");
        assertEquals(-EBADF, PeerFiles.read(fd, 0, into, 0, 10), "closed");
        assertEquals(-EBADF, PeerFiles.close(fd));
        assertEquals(-EBADF, PeerFiles.read(-1, 0, into, 0, 10), "no descriptor");
        assertEquals(-ENOENT, PeerFiles.open(dir.resolve("missing").toString()));
        assertEquals(-ESRCH, PeerFiles.take(Integer.MAX_VALUE - 1, 0), "no such process");
    }
}
