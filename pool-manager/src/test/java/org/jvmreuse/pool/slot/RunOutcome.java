package org.jvmreuse.pool.slot;

import java.lang.ref.WeakReference;

/**
 * How a run of an {@link InProcessSlot} ended: what its manager heard (exit code, whether it
 * started, why the pool could not run it: null if it could), why the slot retired after it (null
 * if it serves on), what the program wrote to stdout and stderr, and its class loader, weakly
 * (cleared once collected; also when the run loaded no main class).
 */
public record RunOutcome(int exitCode, boolean started, String failure, String slotProblem, String stdout, String stderr,
                         WeakReference<ClassLoader> loader) {
    /** The value of the last stdout line {@code key=value}: what the program printed that it saw. */
    public String printed(String key) {
        String value = null;
        for (String line : stdout.split("\n")) {
            if (line.startsWith(key + "=")) {
                value = line.substring(key.length() + 1);
            }
        }
        if (value == null) {
            throw new IllegalStateException("the run printed no " + key + "=...; " + this);
        }
        return value;
    }

    /** Whether the run's class loader is collected within {@code millis}, garbage collections meanwhile. */
    public boolean loaderCollectedWithin(long millis) throws InterruptedException {
        long deadline = System.currentTimeMillis() + millis;
        while (loader.get() != null && System.currentTimeMillis() < deadline) {
            System.gc();
            Thread.sleep(20);
        }
        return loader.get() == null;
    }

    /** Whether the program ran to an ordinary end (exit code 0) and the slot can take the next run. */
    public boolean clean() {
        return exitCode == 0 && started && failure == null && slotProblem == null;
    }

    @Override
    public String toString() {
        return "exit code " + exitCode + (started ? "" : ", not started") + (failure == null ? "" : ", failure: " + failure)
                + (slotProblem == null ? "" : ", the slot retired: " + slotProblem) + "\n--- stdout:\n" + stdout
                + "--- stderr:\n" + stderr;
    }
}
