package org.jvmreuse.boot;

import java.nio.ByteBuffer;

/**
 * A single copy between pool processes of one host, without MPI. A server tells where a chunk is
 * mapped ({@link #pid}, {@link #address}) to a rank that {@link #isLocal}, and the reader copies
 * it from there ({@link #peerRead}). Or the server lends a whole file: it opens it
 * ({@link #openFile}, later {@link #closeFile}) and names the descriptor and the file
 * ({@link #fileKey}: device and inode), and the reader takes that open file out of the server's
 * process ({@link #takeFile}), checks that it is the file named, and reads it ({@link #readFile}).
 * Counts and descriptors are returned as they are, failures as {@code -errno} (EPERM: not allowed
 * here; ENOSYS: before Linux 5.6).
 */
public interface LocalPeers {
    /** This process's pid. */
    long pid();

    /** Whether {@code rank} is a pool process on this host (one with a doorbell here). */
    boolean isLocal(int rank);

    /** The address of a direct buffer's first byte. */
    long address(ByteBuffer direct);

    /** Copies {@code length} bytes at {@code address} of process {@code pid} (on this host) into {@code into}. */
    int peerRead(long pid, long address, byte[] into, int offset, int length);

    /** Opens a file read-only: its descriptor. */
    int openFile(String path);

    int closeFile(int fd);

    /** A descriptor here for the file open as {@code fd} in process {@code pid} (on this host). */
    int takeFile(long pid, int fd);

    /** Reads up to {@code length} bytes at {@code position} of the file (fewer only at its end). */
    int readFile(int fd, long position, byte[] into, int offset, int length);

    /** {device, inode} of the file open as {@code fd} here, or null. */
    long[] fileKey(int fd);
}
