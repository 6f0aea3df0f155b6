package org.jvmreuse.shuffle.protocol;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.IntFunction;

/**
 * The MPI of a pool process as its port hands it over (docs/protocol.md, "Services"): send a
 * message to a rank, send a header and a lent buffer as one unit, take a reusable direct buffer
 * to fill, and give back a received message's buffer. Data chunks go through it without a copy
 * in Java: the server lends MPI a mapped region of the map output, which MPI sends in place,
 * and the reducer copies a received chunk once, into Hadoop's buffer.
 */
public record MessagePort(BiConsumer<Integer, ByteBuffer> send, IntFunction<ByteBuffer> buffer,
                          Consumer<ByteBuffer> release,
                          Function<Consumer<ByteBuffer>, BiConsumer<Integer, ByteBuffer[]>> sendLent) {
    @SuppressWarnings("unchecked")
    public static MessagePort of(Map<String, Object> port) {
        return new MessagePort((BiConsumer<Integer, ByteBuffer>) port.get("send"),
                (IntFunction<ByteBuffer>) port.get("buffer"), (Consumer<ByteBuffer>) port.get("release"),
                (Function<Consumer<ByteBuffer>, BiConsumer<Integer, ByteBuffer[]>>) port.get("sendLent"));
    }

    /** Sets who receives this process's messages (on its communication thread; must not block). */
    @SuppressWarnings("unchecked")
    public static void receiveWith(Map<String, Object> port, BiConsumer<Integer, ByteBuffer> receiver) {
        ((Consumer<BiConsumer<Integer, ByteBuffer>>) port.get("receiver")).accept(receiver);
    }
}
