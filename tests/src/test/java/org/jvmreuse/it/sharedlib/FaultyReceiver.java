package org.jvmreuse.it.sharedlib;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * Run hooks of a test library whose service receiver fails: a run calls {@link #poke} to send its
 * own slot a message that the receiver answers, on the slot's MPI thread, by throwing an
 * {@code AssertionError} ({@code kind} 1) or a {@code NoClassDefFoundError} (2, a linkage error:
 * the JVM may be damaged).
 */
public final class FaultyReceiver {
    private static Map<String, Object> port;

    private FaultyReceiver() {
    }

    @SuppressWarnings("unchecked")
    public static void attach(Map<String, Object> slotPort) {
        port = slotPort;
        Consumer<ByteBuffer> release = (Consumer<ByteBuffer>) port.get("release");
        ((Consumer<BiConsumer<Integer, ByteBuffer>>) port.get("receiver")).accept((source, message) -> {
            byte kind = message.get(0);
            release.accept(message);
            if (kind == 1) {
                throw new AssertionError("injected by FaultyReceiver");
            }
            throw new NoClassDefFoundError("injected by FaultyReceiver");
        });
    }

    @SuppressWarnings("unchecked")
    public static void poke(int kind) {
        ((BiConsumer<Integer, ByteBuffer>) port.get("send")).accept((Integer) port.get("rank"),
                ByteBuffer.wrap(new byte[] {(byte) kind}));
    }

    public static void beforeRun(BiConsumer<String, String> setenv) {
    }

    public static void afterRun(boolean exitHooks) {
    }
}
