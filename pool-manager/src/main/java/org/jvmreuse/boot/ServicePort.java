package org.jvmreuse.boot;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.IntConsumer;

/**
 * What a service or library in a pool process gets of that process's MPI (docs/protocol.md,
 * "Services"): its rank, the service directory of the world, and service messages to and from any
 * rank. Messages travel through the process's one communication thread: receivers are called on
 * it and must not block. Data go through without a copy in Java: a sender may lend MPI a buffer
 * that MPI sends in place ({@link #sendLent}); a receiver copies what it keeps and gives the
 * message's buffer back ({@link #release}).
 */
public interface ServicePort {
    int rank();

    /** Each world rank's announcement ("" for ranks without a service), once exchanged. */
    List<String> directory();

    void send(int rank, ByteBuffer message);

    /**
     * Sends {@code header} and then {@code body} as one unit; {@code body} is lent to MPI and
     * handed to {@code done} (on the communication thread) once MPI no longer needs it.
     */
    void sendLent(int rank, ByteBuffer header, ByteBuffer body, Consumer<ByteBuffer> done);

    /** A reusable direct buffer of at least {@code capacity} bytes to fill and send. */
    ByteBuffer buffer(int capacity);

    /** Gives back a received message's buffer (or one {@link #buffer} gave and was not sent). */
    void release(ByteBuffer buffer);

    /** Sets who receives this process's service messages: (source rank, payload). */
    void receiveWith(BiConsumer<Integer, ByteBuffer> receiver);

    /** Sets who is told the rank of each pool process on this host that ended. */
    void lostWith(IntConsumer lost);

    /** Writes to the pool process's log; {@code level} is "info", "warn" or "error". */
    void log(String level, String message);

    /** Same-host access to other pool processes' memory and files; empty where there is none (tests, an in-JVM loop). */
    Optional<LocalPeers> localPeers();

    /**
     * The host {@code rank} runs on, as that rank announced it at start-up (its
     * {@code MPI_Get_processor_name} up to the first dot; this process's own for {@link #rank}), or
     * "" where not known. Two ranks with different names are on different hosts: bytes between
     * them go as MPI messages, never through {@link #localPeers}.
     */
    default String host(int rank) {
        return "";
    }
}
