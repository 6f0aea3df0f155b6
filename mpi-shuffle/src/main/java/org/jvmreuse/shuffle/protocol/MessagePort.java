package org.jvmreuse.shuffle.protocol;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.IntConsumer;
import java.util.function.IntFunction;
import java.util.function.IntPredicate;
import java.util.function.IntUnaryOperator;
import java.util.function.ToIntFunction;
import java.util.function.ToLongFunction;

/**
 * The MPI of a pool process as its port hands it over (docs/protocol.md, "Services"): send a
 * message to a rank, send a header and a lent buffer as one unit, take a reusable direct buffer
 * to fill, and give back a received message's buffer. Data chunks go through it without a copy
 * in Java: the server lends MPI a mapped region of the map output, which MPI sends in place,
 * and the reducer copies a received chunk once, into Hadoop's buffer. Between two processes of
 * one host the port may also offer a single copy without MPI: the server tells where a chunk is
 * mapped ({@code pid}, {@code address}) to a rank that is {@code local}, and the reducer copies
 * it from there into Hadoop's buffer with {@code peerRead}. Or it lends the whole segment's
 * file: the server opens it ({@code openFile}, later {@code closeFile}) and names the descriptor
 * and the file ({@code fileKey}: device and inode), and the reducer takes that open file out of
 * the server's process ({@code takeFile}), checks that it is the file named, and reads the
 * segment with {@code readFile}. Those are null where the port has none of them (tests, the
 * warm-up's in-JVM loop, an older pool).
 */
public record MessagePort(BiConsumer<Integer, ByteBuffer> send, IntFunction<ByteBuffer> buffer,
                          Consumer<ByteBuffer> release,
                          Function<Consumer<ByteBuffer>, BiConsumer<Integer, ByteBuffer[]>> sendLent,
                          Long pid, IntPredicate local, ToLongFunction<ByteBuffer> address,
                          BiFunction<long[], byte[], Integer> peerRead,
                          ToIntFunction<String> openFile, IntUnaryOperator closeFile, ToIntFunction<long[]> takeFile,
                          BiFunction<long[], byte[], Integer> readFile, IntFunction<long[]> fileKey) {
    @SuppressWarnings("unchecked")
    public static MessagePort of(Map<String, Object> port) {
        return new MessagePort((BiConsumer<Integer, ByteBuffer>) port.get("send"),
                (IntFunction<ByteBuffer>) port.get("buffer"), (Consumer<ByteBuffer>) port.get("release"),
                (Function<Consumer<ByteBuffer>, BiConsumer<Integer, ByteBuffer[]>>) port.get("sendLent"),
                (Long) port.get("pid"), (IntPredicate) port.get("local"), (ToLongFunction<ByteBuffer>) port.get("address"),
                (BiFunction<long[], byte[], Integer>) port.get("peerRead"), (ToIntFunction<String>) port.get("openFile"),
                (IntUnaryOperator) port.get("closeFile"), (ToIntFunction<long[]>) port.get("takeFile"),
                (BiFunction<long[], byte[], Integer>) port.get("readFile"), (IntFunction<long[]>) port.get("fileKey"));
    }

    /** Whether chunks for {@code rank} can stay in this process's memory for it to copy (the server side). */
    public boolean lendsTo(int rank) {
        return pid != null && local != null && address != null && local.test(rank);
    }

    /** Whether map output files can be lent to {@code rank} for it to read itself (the server side). */
    public boolean lendsFilesTo(int rank) {
        return pid != null && local != null && openFile != null && closeFile != null && fileKey != null && local.test(rank);
    }

    /** Sets who receives this process's messages (on its communication thread; must not block). */
    @SuppressWarnings("unchecked")
    public static void receiveWith(Map<String, Object> port, BiConsumer<Integer, ByteBuffer> receiver) {
        ((Consumer<BiConsumer<Integer, ByteBuffer>>) port.get("receiver")).accept(receiver);
    }

    /**
     * Sets who is told of each pool process on this host that ended (on the communication
     * thread; must not block), where the port tells that (a pool's does).
     */
    @SuppressWarnings("unchecked")
    public static void lostWith(Map<String, Object> port, IntConsumer lost) {
        Consumer<IntConsumer> setter = (Consumer<IntConsumer>) port.get("lost");
        if (setter != null) {
            setter.accept(lost);
        }
    }
}
