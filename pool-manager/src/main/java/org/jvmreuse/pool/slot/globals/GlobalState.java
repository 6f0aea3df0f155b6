package org.jvmreuse.pool.slot.globals;

/**
 * One kind of JDK-wide state that a program can change and that a new JVM would show fresh (a
 * factory that can be set once, a registry, a default). The slot records it before each run and
 * puts it back after; what cannot be put back retires the slot.
 */
public interface GlobalState {
    /** What this covers, in the words of the pool log ("URL stream handler factory"). */
    String name();

    /** Records the state before a run. Called on every run, so it must cost a few reads. */
    Snapshot capture();

    /** The state as it was before one run. */
    interface Snapshot {
        /**
         * Puts the state back after the run; {@code runLoader} is the run's class loader (null
         * if the run never got one), to tell what the run registered. Returns null, or why the
         * state cannot be put back, which retires the slot.
         */
        String restore(ClassLoader runLoader);
    }
}
