package org.jvmreuse.pool.slot;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.reflect.Field;
import org.jvmreuse.pool.jdk.JdkInternals;
import org.jvmreuse.pool.jdk.LiveThreads;

/**
 * What {@code ClassLoader.getSystemClassLoader()} answers: during a run, the run's loader, which
 * holds the run's class path as the system class loader of a new JVM ({@code java -cp}) does;
 * otherwise the loader of the pool's own class path. A run thus finds its own classes there,
 * and not the pool's ({@code Class.forName(name, true, ClassLoader.getSystemClassLoader())}).
 * The JDK threads that have the system class loader as context loader (common-pool workers, the
 * process reaper) have the run's during the run, as in a new JVM; the guard of their state
 * (globals.JdkThreadState) gives them the slot's back.
 */
final class SystemLoaderSwitch {
    private static final VarHandle SCL = systemLoaderField();
    /** Set directly: some JDK threads refuse the setter (InnocuousThread); JDK 21+ threads without one of their own answer the system loader. */
    private static final Field CONTEXT_LOADER = JdkInternals.field("java.lang.Thread", "contextClassLoader");
    private final ClassLoader slotLoader = ClassLoader.getSystemClassLoader();
    private final ThreadGroup slotGroup = Thread.currentThread().getThreadGroup();

    /** ClassLoader's fields are hidden from reflection (getDeclaredField), not from a private lookup. */
    private static VarHandle systemLoaderField() {
        try {
            return MethodHandles.privateLookupIn(ClassLoader.class, MethodHandles.lookup())
                    .findStaticVarHandle(ClassLoader.class, "scl", ClassLoader.class);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("cannot reach java.lang.ClassLoader.scl in Java " + Runtime.version()
                    + " (is the slot JVM started by the pool's launcher, -javaagent:pool-manager-*-launcher.jar?)", e);
        }
    }

    void lend(ClassLoader runLoader) {
        SCL.setVolatile(runLoader);
        for (Thread t : LiveThreads.jdkThreads(slotGroup)) {
            if (JdkInternals.get(CONTEXT_LOADER, t) == slotLoader) {
                JdkInternals.set(CONTEXT_LOADER, t, runLoader);
            }
        }
    }

    void restore() {
        SCL.setVolatile(slotLoader);
    }

    /**
     * JDK threads that outlive runs take the context loader of the run thread that first needed
     * them (the process reaper of the first run that started a process, for one) and would keep
     * that run's classes alive for the slot's lifetime: they get the slot's.
     */
    void releaseFrom(ClassLoader runLoader) {
        for (Thread t : LiveThreads.in(LiveThreads.root(slotGroup))) {
            if (JdkInternals.get(CONTEXT_LOADER, t) == runLoader) {
                JdkInternals.set(CONTEXT_LOADER, t, slotLoader);
            }
        }
    }
}
