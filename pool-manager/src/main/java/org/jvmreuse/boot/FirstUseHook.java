package org.jvmreuse.boot;

import java.util.function.IntConsumer;

/**
 * Called at the top of every constructor and static method of the shared classes a library named
 * through {@link SlotAccess#onFirstUse} (the slot's agent rewrites them), with the number of that
 * call. Lives on the boot class path so that classes of any loader can see it. The listener is
 * installed once, by the slot before any run; with none installed it does nothing.
 */
public final class FirstUseHook {
    private static volatile IntConsumer listener;

    private FirstUseHook() {
    }

    /** Installs the slot's listener; there is one per JVM, so a second call (a run's) fails. */
    public static synchronized void install(IntConsumer value) {
        if (listener != null) {
            throw new IllegalStateException("the first-use listener is installed already");
        }
        listener = value;
    }

    public static void used(int id) {
        IntConsumer current = listener;
        if (current != null) {
            current.accept(id);
        }
    }
}
