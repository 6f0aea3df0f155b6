package org.jvmreuse.pool.slot.globals;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import org.jvmreuse.pool.PoolThreads;
import org.jvmreuse.pool.slot.JdkInternals;
import org.jvmreuse.pool.slot.LiveThreads;

/**
 * Per-thread state of the JDK threads that outlive runs and can run a run's code: common-pool
 * workers (a run's parallel streams and CompletableFutures), and the threads outside the slot's
 * thread group (the process reaper runs a run's onExit actions, the signal dispatcher its signal
 * handlers, the common cleaner...). Their thread locals the run set (a value of the run's classes
 * keeps its loader; stale entries too), their uncaught exception handler, name and priority go
 * back; common-pool workers get the system class loader as context loader (they take the loader
 * of the run thread that started them). Whether a live thread is a daemon cannot change.
 * Workers started during a run are not known before it: their handler and thread locals are
 * cleared, its priority is the normal one, and if the run renamed it, it gets a worker's name
 * (the JDK does not keep its number).
 */
@SuppressWarnings("deprecation") // Thread.getId: threadId() is Java 19+
final class JdkThreadState implements GlobalState {
    private static final String WORKER_NAME = "ForkJoinPool.commonPool-worker-";
    private final ThreadGroup slotGroup = Thread.currentThread().getThreadGroup();
    private final ThreadGroup root;
    private final Field threadLocals = JdkInternals.field("java.lang.Thread", "threadLocals");
    private final Field inheritableThreadLocals = JdkInternals.field("java.lang.Thread", "inheritableThreadLocals");
    private final Field handler = JdkInternals.field("java.lang.Thread", "uncaughtExceptionHandler");
    private final Field table = JdkInternals.field("java.lang.ThreadLocal$ThreadLocalMap", "table");
    private final Method remove = JdkInternals.method("java.lang.ThreadLocal$ThreadLocalMap", "remove", ThreadLocal.class);
    private final Method expungeStale = JdkInternals.method("java.lang.ThreadLocal$ThreadLocalMap", "expungeStaleEntries");

    JdkThreadState() {
        ThreadGroup top = slotGroup;
        while (top.getParent() != null) {
            top = top.getParent();
        }
        root = top;
    }

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
                    if (isCommonPoolWorker(t)) {
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
        List<Thread> jdk = new ArrayList<>();
        for (Thread t : LiveThreads.in(root)) {
            ThreadGroup group = t.getThreadGroup();
            if (!PoolThreads.isPoolThread(t) && group != null
                    && (isCommonPoolWorker(t) || !slotGroup.parentOf(group))) {
                jdk.add(t);
            }
        }
        return jdk;
    }

    private static boolean isCommonPoolWorker(Thread t) {
        return t instanceof ForkJoinWorkerThread worker && worker.getPool() == ForkJoinPool.commonPool();
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
        private final ClassLoader contextLoader;
        private final Set<ThreadLocal<?>> locals;
        private final Set<ThreadLocal<?>> inheritable;

        ThreadState(Thread t) {
            thread = t;
            name = t.getName();
            priority = t.getPriority();
            uncaught = JdkInternals.get(handler, t);
            contextLoader = isCommonPoolWorker(t) ? ClassLoader.getSystemClassLoader() : t.getContextClassLoader();
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
            if (thread.getContextClassLoader() != contextLoader) {
                thread.setContextClassLoader(contextLoader);
            }
            clearAdded(thread, threadLocals, locals);
            clearAdded(thread, inheritableThreadLocals, inheritable);
        }
    }
}
