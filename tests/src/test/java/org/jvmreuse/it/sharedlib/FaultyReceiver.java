package org.jvmreuse.it.sharedlib;

import java.nio.ByteBuffer;
import java.util.function.BiConsumer;
import org.jvmreuse.boot.RunHook;
import org.jvmreuse.boot.ServicePort;
import org.jvmreuse.boot.SlotAccess;

/**
 * Run hooks of a test library whose service receiver fails: a run calls {@link #poke} to send its
 * own slot a message that the receiver answers, on the slot's MPI thread, by throwing an
 * {@code AssertionError} ({@code kind} 1) or a {@code NoClassDefFoundError} (2, a linkage error:
 * the JVM may be damaged).
 */
public final class FaultyReceiver implements RunHook {
    private static volatile ServicePort port;

    @Override
    public void attach(SlotAccess slot) {
        port = slot.port();
        port.receiveWith((source, message) -> {
            byte kind = message.get(0);
            port.release(message);
            if (kind == 1) {
                throw new AssertionError("injected by FaultyReceiver");
            }
            throw new NoClassDefFoundError("injected by FaultyReceiver");
        });
    }

    public static void poke(int kind) {
        port.send(port.rank(), ByteBuffer.wrap(new byte[] {(byte) kind}));
    }

    @Override
    public void beforeRun(BiConsumer<String, String> setenv) {
    }

    @Override
    public void afterRun(boolean exitHooks) {
    }
}
