package org.jvmreuse.boot;

import java.util.function.BiConsumer;

/**
 * What a shared library brings to the slot that keeps its classes loaded across runs: resets of
 * its own statics around every run. The slot finds the library's hooks with
 * {@link java.util.ServiceLoader} in the library's shared loader (a jar lists them in
 * {@code META-INF/services/org.jvmreuse.boot.RunHook}) and makes each once, when it creates that
 * loader, outside any run: what a hook's class registers while it initialises belongs to the
 * slot. Only JDK types and the types of this package cross between slot and library.
 */
public interface RunHook {
    /** Once, right after the hook is made, outside any run: what the slot lends the library. */
    default void attach(SlotAccess slot) {
    }

    /**
     * Before the program starts, with the run's environment, properties, working directory,
     * standard streams and context loader in place; {@code setenv} sets a variable of the run's
     * environment.
     */
    void beforeRun(BiConsumer<String, String> setenv);

    /**
     * When the run ends, after its JVM shutdown hooks and before its threads are interrupted and
     * stopped. A JVM's threads vanish at once; a slot's die one by one, and a thread that sees
     * another die (a broken connection) may act on it, say by repeating a call the other side
     * already took. Here the library stops such effects.
     */
    default void beforeEnd() {
    }

    /**
     * After the run's shutdown hooks ran (if {@code exitHooks}) and its threads ended, before the
     * slot restores its own state. An {@code IllegalStateException} retires the slot: the library
     * could not put back what a new JVM would have.
     */
    void afterRun(boolean exitHooks);
}
