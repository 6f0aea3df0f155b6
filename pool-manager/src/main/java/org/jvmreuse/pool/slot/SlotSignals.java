package org.jvmreuse.pool.slot;

import java.util.function.IntConsumer;
import org.jvmreuse.pool.PoolLog;
import sun.misc.Signal;

/**
 * SIGHUP, SIGINT and SIGTERM sent to the slot's process (a run's child script doing
 * {@code kill $PPID}, say) are meant for the program that runs there, as they would be in a JVM
 * of its own: they end the current run with 128+signal, as a signal from its client does, and
 * never the slot (the JDK's handlers would shut the whole JVM down). Installed before the
 * warm-up, so that the slot's guard of JDK-wide state keeps them as the baseline a run's own
 * handlers are put back to.
 */
final class SlotSignals {
    private static final String[] ENDING = {"HUP", "INT", "TERM"};

    private SlotSignals() {
    }

    /** Hands each ending signal's number to {@code toCurrentRun}. */
    static void install(IntConsumer toCurrentRun) {
        for (String name : ENDING) {
            Signal.handle(new Signal(name), signal -> {
                PoolLog.get().warn("SIG" + signal.getName() + " sent to the slot's process; it ends the current run, if any");
                toCurrentRun.accept(signal.getNumber());
            });
        }
    }
}
