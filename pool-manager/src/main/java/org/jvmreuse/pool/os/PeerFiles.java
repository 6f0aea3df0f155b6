package org.jvmreuse.pool.os;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Lends open files between two processes of one host (Linux pidfd_getfd, 5.6): the MPI
 * shuffle's file lend. The Shuffle Manager opens a map output ({@link #open}); a reducer takes
 * that open file out of the manager's process ({@link #take}) and reads its segment itself
 * ({@link #read}, pread straight into the Java array: one copy out of the page cache, no mapping
 * and no message per chunk). The kernel allows the take for a process of the same user that
 * this one could trace, as for {@link PeerMemory}. Every call returns -errno on failure, as the
 * port's functions do (docs/protocol.md, "Services"). Needs the pool's native library.
 */
public final class PeerFiles {
    private PeerFiles() {
    }

    /** Opens {@code path} read-only: a descriptor, or -errno. */
    public static int open(String path) {
        return Native.openRead(path);
    }

    /** A descriptor here for the file open as {@code fd} in process {@code pid}, or -errno (EPERM, ENOSYS before Linux 5.6). */
    public static int take(long pid, int fd) {
        return Native.peerFd(pid, fd);
    }

    /** Reads up to {@code length} bytes at {@code position} of {@code fd} into {@code into}: the count (fewer only at the end of the file), or -errno. */
    public static int read(int fd, long position, byte[] into, int offset, int length) {
        return Native.fileRead(fd, position, into, offset, length);
    }

    /**
     * {device, inode} of the file open as {@code fd} here (fstat's, through the /proc/self/fd
     * link, which leads to the open file even once its name is gone), or null.
     */
    public static long[] key(int fd) {
        try {
            Map<String, Object> attributes = Files.readAttributes(Path.of("/proc/self/fd/" + fd), "unix:dev,ino");
            return new long[] {(Long) attributes.get("dev"), (Long) attributes.get("ino")};
        } catch (IOException | UnsupportedOperationException e) {
            return null;
        }
    }

    /** Closes {@code fd}: 0 or -errno. */
    public static int close(int fd) {
        return Native.closeFd(fd);
    }
}
