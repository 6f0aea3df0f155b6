package org.jvmreuse.pool.mpi;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * Receives posted for messages that stay on the wire a while (large ones from another host: a
 * MiB takes 9 ms at 1 Gbit/s), so that the communication loop neither spins inside a blocking MPI
 * receive for the whole transfer nor stops sending and receiving meanwhile. Kept per source rank
 * in the order MPI matched them, and handed on in that order: a message is handed on only after
 * every earlier one from its rank, as blocking receives would (the MPI shuffle's DATA header is
 * followed by its bytes). Communication thread only.
 */
final class PostedReceives {
    private record Posted(Mpi.Envelope envelope, ByteBuffer message, Mpi.Request request) {
    }

    private final Map<Integer, ArrayDeque<Posted>> bySource = new HashMap<>();
    private int count;

    /** Whether a receive from {@code source} is still posted: its next messages must queue behind it. */
    boolean waitingFrom(int source) {
        ArrayDeque<Posted> queue = bySource.get(source);
        return queue != null && !queue.isEmpty();
    }

    /** Receives posted and not handed on yet. */
    int count() {
        return count;
    }

    /** Posts the receive of the message {@code envelope} describes (probed, so MPI matches that one) into {@code message}. */
    void post(Mpi mpi, Mpi.Envelope envelope, ByteBuffer message) {
        ArrayDeque<Posted> queue = bySource.computeIfAbsent(envelope.source(), s -> new ArrayDeque<>());
        queue.add(new Posted(envelope, message, mpi.iRecv(message, envelope.count(), envelope.source(), envelope.tag())));
        count++;
    }

    /** Hands every receive that completed, in order per source, to {@code done}; whether any did. */
    boolean complete(BiConsumer<Mpi.Envelope, ByteBuffer> done) {
        if (count == 0) {
            return false;
        }
        boolean any = false;
        for (ArrayDeque<Posted> queue : bySource.values()) {
            while (!queue.isEmpty() && queue.peek().request().test()) {
                Posted posted = queue.poll();
                count--;
                any = true;
                done.accept(posted.envelope(), posted.message());
            }
        }
        return any;
    }
}
