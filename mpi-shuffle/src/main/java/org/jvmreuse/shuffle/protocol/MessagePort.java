package org.jvmreuse.shuffle.protocol;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.IntFunction;

/**
 * The MPI of a pool process as its port hands it over (docs/protocol.md, "Services"): send a
 * message to a rank, take a reusable direct buffer to fill, and give back a received message's
 * buffer. Data chunks go through it without a copy in Java: the server reads a file into a
 * taken buffer that MPI sends in place, and the reducer copies a received chunk once, into
 * Hadoop's buffer.
 */
public record MessagePort(BiConsumer<Integer, ByteBuffer> send, IntFunction<ByteBuffer> buffer,
                          Consumer<ByteBuffer> release) {
    @SuppressWarnings("unchecked")
    public static MessagePort of(Map<String, Object> port) {
        return new MessagePort((BiConsumer<Integer, ByteBuffer>) port.get("send"),
                (IntFunction<ByteBuffer>) port.get("buffer"), (Consumer<ByteBuffer>) port.get("release"));
    }

    /** Sets who receives this process's messages (on its communication thread; must not block). */
    @SuppressWarnings("unchecked")
    public static void receiveWith(Map<String, Object> port, BiConsumer<Integer, ByteBuffer> receiver) {
        ((Consumer<BiConsumer<Integer, ByteBuffer>>) port.get("receiver")).accept(receiver);
    }
}
