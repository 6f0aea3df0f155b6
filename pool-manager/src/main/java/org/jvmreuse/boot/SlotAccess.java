package org.jvmreuse.boot;

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
}
