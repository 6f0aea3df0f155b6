package org.jvmreuse.hadoop.task;

import java.util.ArrayList;
import java.util.List;

/**
 * Runs reset steps one by one so that a failing step does not stop the others, and remembers
 * what failed. A failed critical step means the next task would not see a fresh JVM (or the
 * run's class loader stays reachable): the slot must retire. A failed minor step (the next task
 * would differ in a detail only: a service of its own jar not found, a counter off) is swallowed;
 * it is named only if the slot retires for a critical one.
 */
final class Problems {
    private final List<String> critical = new ArrayList<>();
    private final List<String> minor = new ArrayList<>();

    void critical(String step, Runnable reset) {
        run(step, reset, critical);
    }

    void minor(String step, Runnable reset) {
        run(step, reset, minor);
    }

    private static void run(String step, Runnable reset, List<String> failures) {
        try {
            reset.run();
        } catch (RuntimeException | LinkageError e) {
            failures.add(step + ": " + e);
        }
    }

    /** Throws if a critical step failed, naming every failure (minor ones too). */
    void throwIfCritical() {
        if (!critical.isEmpty()) {
            throw new IllegalStateException("Hadoop state could not be reset, the slot must not run another task: "
                    + String.join("; ", critical)
                    + (minor.isEmpty() ? "" : "; minor: " + String.join("; ", minor)));
        }
    }
}
