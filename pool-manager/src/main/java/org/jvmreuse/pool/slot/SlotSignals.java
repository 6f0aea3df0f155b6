package org.jvmreuse.pool.slot;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.IntConsumer;
import org.jvmreuse.pool.common.PoolLog;
import org.jvmreuse.pool.common.PoolThreads;
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

    /**
     * Hands each ending signal's number to {@code toCurrentRun}, on a pool thread of its own: the
     * JDK runs signal handlers on its signal dispatcher, which is no pool thread, and what the
     * run's end starts from there (the signal for its child processes) must be the pool's.
     * Called from a pool thread.
     */
    static void install(IntConsumer toCurrentRun) {
        BlockingQueue<Integer> received = new LinkedBlockingQueue<>();
        PoolThreads.start("slot-signals", () -> {
            try {
                while (true) {
                    toCurrentRun.accept(received.take());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        for (String name : ENDING) {
            Signal.handle(new Signal(name), signal -> {
                PoolLog.get().warn("SIG" + signal.getName() + " sent to the slot's process; it ends the current run, if any");
                received.add(signal.getNumber());
            });
        }
    }
}
