package org.jvmreuse.pool.os;

import java.nio.ByteBuffer;

/**
 * Reads another process's memory on this host (Linux process_vm_readv, "cross memory attach"):
 * the MPI shuffle's one copy of a chunk, from the Shuffle Manager's mapping of the map output
 * into the reducer's Java array. The kernel allows it for a process of the same user that this
 * one could trace (Yama's ptrace_scope 0; with 1 or more it refuses with EPERM, and the shuffle
 * sends the bytes over MPI instead). Needs the pool's native library ({@code -Djvmreuse.native}).
 */
public final class PeerMemory {
    private PeerMemory() {
    }

    /** Copies {@code length} bytes at {@code address} in process {@code pid} into {@code into}; the count or -errno. */
    public static int read(long pid, long address, byte[] into, int offset, int length) {
        return Native.peerRead(pid, address, into, offset, length);
    }

    /** The address of the first byte of {@code buffer}, a direct buffer such as a mapped file region. */
    public static long address(ByteBuffer buffer) {
        if (!buffer.isDirect()) {
            throw new IllegalArgumentException("not a direct buffer");
        }
        return Native.bufferAddress(buffer);
    }
}
