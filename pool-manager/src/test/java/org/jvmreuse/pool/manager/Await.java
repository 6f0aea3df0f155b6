package org.jvmreuse.pool.manager;

import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Waits for a condition with a deadline, polling briefly, instead of sleeping a guessed time. */
final class Await {
    /** Long enough for a loaded 2-CPU machine; a passing test waits far less. */
    static final Duration PATIENCE = Duration.ofSeconds(10);

    private Await() {
    }

    static void until(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail("timed out waiting until " + what);
            }
            try {
                Thread.sleep(2);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                fail("interrupted waiting until " + what);
            }
        }
    }
}
