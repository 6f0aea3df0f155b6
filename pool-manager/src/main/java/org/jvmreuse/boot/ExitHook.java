package org.jvmreuse.boot;

/**
 * Called at the top of {@code Runtime.exit} and {@code Runtime.halt} (the slot's agent
 * rewrites both). Lives on the boot class path so that {@code java.lang.Runtime} can see it.
 * With no interceptor installed it does nothing and the JVM exits as usual; the slot installs
 * one before any run, once (a run cannot take it away).
 */
public final class ExitHook {
    private static volatile ExitInterceptor interceptor;

    private ExitHook() {
    }

    /** Installs the slot's interceptor; there is one per JVM, so a second call (a run's) fails. */
    public static synchronized void install(ExitInterceptor value) {
        if (interceptor != null) {
            throw new IllegalStateException("the exit interceptor is installed already");
        }
        interceptor = value;
    }

    /** Returns normally to let the JVM exit; throws {@link TaskExit} to end only the task. */
    public static void onExit(int status, boolean halt) {
        ExitInterceptor current = interceptor;
        if (current != null) {
            current.onExit(status, halt);
        }
    }
}
