package org.jvmreuse.pool.mpi;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;

/**
 * Direct buffers for outgoing messages, reused: shuffle data is sent in chunks of a megabyte or
 * so, and allocating a direct buffer per chunk leaves the freeing to the garbage collector,
 * which falls behind. Only the communication thread uses it.
 */
final class DirectBuffers {
    private static final int KEEP = 16;
    private static final int SMALLEST = 4096;
    private final ArrayDeque<ByteBuffer> free = new ArrayDeque<>();

    ByteBuffer take(int size) {
        for (var it = free.iterator(); it.hasNext(); ) {
            ByteBuffer buffer = it.next();
            if (buffer.capacity() >= size) {
                it.remove();
                return buffer.clear();
            }
        }
        return ByteBuffer.allocateDirect(Math.max(SMALLEST, Integer.highestOneBit(Math.max(1, size - 1)) << 1));
    }

    void give(ByteBuffer buffer) {
        if (free.size() == KEEP) {
            free.pollFirst();
        }
        free.addLast(buffer);
    }
}
