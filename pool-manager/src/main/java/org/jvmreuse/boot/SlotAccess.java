package org.jvmreuse.boot;

import java.util.List;

/** What a slot lends a shared library's {@link RunHook}, once, outside any run. */
public interface SlotAccess {
    /** The slot process's MPI, as services and libraries use it. */
    ServicePort port();

    /**
     * {@code ClassLoader.findLoadedClass} of the library's shared loader: protected, and the
     * library gets no deep reflection into {@code java.lang}, which is opened to the pool's code only.
     */
    Class<?> findLoadedClass(String name);

    /**
     * Marks a thread the library makes to outlive runs (a worker of a pool it keeps in a static)
     * as the slot's; a thread started during a run is otherwise the run's, and ends with it.
     */
    void slotThread(Thread thread);

    /**
     * Runs {@code action} in every run, before the run first calls a constructor or a static
     * method of any of {@code classes} (the library's, loaded by its shared loader), and at most
     * once per run: for a class initialiser's JVM-wide effect (what it registers in another
     * class's statics), which a new JVM has from its first use of the class on, and which the
     * library's reset takes back after each run. The action runs on the run's thread that made the
     * call, which waits, as it would for a class initialiser; another thread's call meanwhile
     * waits too. Outside runs the classes call nothing. Each class can be named once.
     */
    void onFirstUse(List<Class<?>> classes, Runnable action);
}
