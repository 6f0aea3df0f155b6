package org.jvmreuse.boot;

import java.util.function.Consumer;

/**
 * Called at the top of {@code Thread.start} (the slot's agent rewrites it), on the thread that
 * starts {@code started}: the slot learns there which run a new thread belongs to. Lives on the
 * boot class path so that {@code java.lang.Thread} can see it. The listener is installed once,
 * by the slot before any run; with none installed it does nothing.
 */
public final class ThreadStartHook {
    private static volatile Consumer<Thread> listener;

    private ThreadStartHook() {
    }

    /** Installs the slot's listener; there is one per JVM, so a second call (a run's) fails. */
    public static synchronized void install(Consumer<Thread> value) {
        if (listener != null) {
            throw new IllegalStateException("the thread start listener is installed already");
        }
        listener = value;
    }

    public static void onStart(Thread started) {
        Consumer<Thread> current = listener;
        if (current != null) {
            current.accept(started);
        }
    }
}
