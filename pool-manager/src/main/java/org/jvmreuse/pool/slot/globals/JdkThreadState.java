package org.jvmreuse.pool.slot.globals;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import org.jvmreuse.pool.jdk.JdkInternals;
import org.jvmreuse.pool.jdk.LiveThreads;

/**
 * Per-thread state of the JDK threads that outlive runs and can run a run's code
 * ({@link LiveThreads#jdkThreads}). Their thread locals the run set (a value of the run's classes
 * keeps its loader; stale entries too), their uncaught exception handler, name, priority and
 * context loader go back (during a run, those that had the slot's system class loader have the
 * run's: SystemLoaderSwitch); common-pool workers started during the run get the slot's system
 * class loader as context loader (they take the loader of the run thread that started them). Whether a live thread is a daemon cannot change.
 * Workers started during a run are not known before it: their handler and thread locals are
 * cleared, its priority is the normal one, and if the run renamed it, it gets a worker's name
 * (the JDK does not keep its number).
 */
@SuppressWarnings("deprecation") // Thread.getId: threadId() is Java 19+
final class JdkThreadState implements GlobalState {
    private static final String WORKER_NAME = "ForkJoinPool.commonPool-worker-";
    private final ThreadGroup slotGroup = Thread.currentThread().getThreadGroup();
    private final Field threadLocals = JdkInternals.field("java.lang.Thread", "threadLocals");
    private final Field inheritableThreadLocals = JdkInternals.field("java.lang.Thread", "inheritableThreadLocals");
    private final Field handler = JdkInternals.field("java.lang.Thread", "uncaughtExceptionHandler");
    /** Set directly: some JDK threads refuse a setter (InnocuousThread) that the run's loader must leave. */
    private final Field contextLoader = JdkInternals.field("java.lang.Thread", "contextClassLoader");
    private final Field table = JdkInternals.field("java.lang.ThreadLocal$ThreadLocalMap", "table");
    private final Method remove = JdkInternals.method("java.lang.ThreadLocal$ThreadLocalMap", "remove", ThreadLocal.class);
    private final Method expungeStale = JdkInternals.method("java.lang.ThreadLocal$ThreadLocalMap", "expungeStaleEntries");

    @Override
    public String name() {
        return "JDK threads' state";
    }

    @Override
    public Snapshot capture() {
        List<ThreadState> before = new ArrayList<>();
        for (Thread t : jdkThreads()) {
            before.add(new ThreadState(t));
        }
        return runLoader -> {
            Set<Thread> known = Collections.newSetFromMap(new IdentityHashMap<>());
            for (ThreadState state : before) {
                known.add(state.thread);
                state.restore();
            }
            for (Thread t : jdkThreads()) {
                if (!known.contains(t)) {
                    JdkInternals.set(handler, t, null);
                    clearAdded(t, threadLocals, Set.of());
                    clearAdded(t, inheritableThreadLocals, Set.of());
                    if (LiveThreads.isCommonPoolWorker(t)) {
                        t.setContextClassLoader(ClassLoader.getSystemClassLoader());
                        if (!t.getName().startsWith(WORKER_NAME)) {
                            t.setName(WORKER_NAME + t.getId()); // its number is not kept: one no other worker has
                        }
                        t.setPriority(Thread.NORM_PRIORITY); // as the run's main thread starts it
                    }
                }
            }
            return null;
        };
    }

    private List<Thread> jdkThreads() {
        return LiveThreads.jdkThreads(slotGroup);
    }

    /** The thread locals in {@code t}'s map (null for a stale entry). */
    private Set<ThreadLocal<?>> keys(Thread t, Field map) {
        Object m = JdkInternals.get(map, t);
        if (m == null) {
            return Set.of();
        }
        Set<ThreadLocal<?>> keys = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Object entry : (Object[]) JdkInternals.get(table, m)) {
            if (entry != null) {
                keys.add((ThreadLocal<?>) ((java.lang.ref.Reference<?>) entry).get());
            }
        }
        return keys;
    }

    /**
     * Removes the thread locals not {@code kept} and stale entries from {@code t}'s map. The map
     * is the thread's own, so it is only touched when there is something to remove.
     */
    private void clearAdded(Thread t, Field map, Set<ThreadLocal<?>> kept) {
        Object m = JdkInternals.get(map, t);
        if (m == null) {
            return;
        }
        Set<ThreadLocal<?>> keys = keys(t, map);
        if (kept.containsAll(keys) && !keys.contains(null)) {
            return;
        }
        try {
            for (ThreadLocal<?> key : keys) {
                if (key != null && !kept.contains(key)) {
                    remove.invoke(m, key);
                }
            }
            expungeStale.invoke(m);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot clear thread locals of " + t, e);
        }
    }

    /** One JDK thread as it was before the run. */
    private final class ThreadState {
        private final Thread thread;
        private final String name;
        private final int priority;
        private final Object uncaught;
        private final Object loader;
        private final Set<ThreadLocal<?>> locals;
        private final Set<ThreadLocal<?>> inheritable;

        ThreadState(Thread t) {
            thread = t;
            name = t.getName();
            priority = t.getPriority();
            uncaught = JdkInternals.get(handler, t);
            loader = LiveThreads.isCommonPoolWorker(t) ? ClassLoader.getSystemClassLoader() : JdkInternals.get(contextLoader, t);
            locals = keys(t, threadLocals);
            inheritable = keys(t, inheritableThreadLocals);
        }

        void restore() {
            if (!thread.getName().equals(name)) {
                thread.setName(name);
            }
            if (thread.getPriority() != priority) {
                thread.setPriority(priority);
            }
            JdkInternals.set(handler, thread, uncaught);
            JdkInternals.set(contextLoader, thread, loader);
            clearAdded(thread, threadLocals, locals);
            clearAdded(thread, inheritableThreadLocals, inheritable);
        }
    }
}
