package org.jvmreuse.pool.mpi;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;

/**
 * Direct buffers for MPI messages, reused. Shuffle data moves in chunks of a megabyte or so; a
 * fresh buffer per chunk, direct or a Java array, leaves the freeing to the garbage collector,
 * which falls behind (on a heap of 512 MB a 1 MiB array is a G1 humongous object). MPI reads
 * and writes direct buffers in place, where a Java array costs the bindings a copy. Any thread
 * may take and give: messages are filled and read off the communication thread.
 */
final class DirectBuffers {
    private static final long KEEP_BYTES = 64L << 20;
    private static final int SMALLEST = 4096;
    private static final int GRAIN = 64 << 10;
    /** Small buffers made at the start, so that the pool's own messages still move when direct memory is full. */
    private static final int RESERVED = 8;
    private final ArrayDeque<ByteBuffer> free = new ArrayDeque<>();
    private long freeBytes;

    DirectBuffers() {
        for (int i = 0; i < RESERVED; i++) {
            give(ByteBuffer.allocateDirect(SMALLEST));
        }
    }

    /** A buffer with position 0 and limit {@code size}; a reused one is at most twice as large. */
    ByteBuffer take(int size) {
        synchronized (this) {
            for (var it = free.iterator(); it.hasNext(); ) {
                ByteBuffer buffer = it.next();
                if (buffer.capacity() >= size && buffer.capacity() / 2 <= Math.max(size, SMALLEST)) {
                    it.remove();
                    freeBytes -= buffer.capacity();
                    return buffer.clear().limit(size);
                }
            }
        }
        int grain = size < GRAIN ? SMALLEST : GRAIN;
        int capacity = Math.max(SMALLEST, (size + grain - 1) / grain * grain);
        return ByteBuffer.allocateDirect(capacity).limit(size);
    }

    /**
     * Takes back a buffer from {@link #take}; beyond 64 MiB kept, the collector frees it. One
     * given back twice is kept once, so it is never handed to two users.
     */
    void give(ByteBuffer buffer) {
        if (!buffer.isDirect()) {
            return;
        }
        synchronized (this) {
            for (ByteBuffer kept : free) {
                if (kept == buffer) {
                    return;
                }
            }
            if (freeBytes + buffer.capacity() <= KEEP_BYTES) {
                free.addLast(buffer);
                freeBytes += buffer.capacity();
            }
        }
    }
}
