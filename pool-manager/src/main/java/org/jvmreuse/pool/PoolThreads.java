package org.jvmreuse.pool;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The threads that belong to the pool itself. Every other live application thread in a slot is
 * taken to belong to the run, so exits from it end the run, and it is stopped when the run ends.
 */
public final class PoolThreads {
    private static final Set<Thread> POOL = ConcurrentHashMap.newKeySet();

    private PoolThreads() {
    }

    /** Marks the calling thread (the process's main thread) as a pool thread. */
    public static void adoptCurrent() {
        POOL.add(Thread.currentThread());
    }

    public static Thread start(String name, Runnable body) {
        Thread thread = create(name, body);
        thread.start();
        return thread;
    }

    /** A daemon pool thread, not yet started (for thread factories). */
    public static Thread create(String name, Runnable body) {
        Thread thread = new Thread(() -> {
            try {
                body.run();
            } catch (RuntimeException | Error e) {
                PoolLog.get().error("pool thread " + Thread.currentThread().getName() + " died", e);
            } finally {
                POOL.remove(Thread.currentThread());
            }
        }, name);
        thread.setDaemon(true);
        POOL.add(thread);
        return thread;
    }

    public static boolean isPoolThread(Thread thread) {
        return POOL.contains(thread);
    }
}
