package org.jvmreuse.pool.common;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The threads that belong to the pool itself. Every other live application thread in a slot is
 * taken to belong to the run, so exits from it end the run, and it is stopped when the run ends.
 * Only the pool's threads make pool threads: the process's main thread adopts itself once, and a
 * thread made here from any other thread (a run's, which reached this class through an object
 * the slot handed it) is an ordinary thread, the run's like any other it starts.
 */
public final class PoolThreads {
    private static final Set<Thread> POOL = ConcurrentHashMap.newKeySet();
    private static final AtomicBoolean ADOPTED = new AtomicBoolean();

    private PoolThreads() {
    }

    /** Marks the calling thread (the process's main thread) as a pool thread; once per process. */
    public static void adoptCurrent() {
        if (!ADOPTED.compareAndSet(false, true)) {
            throw new IllegalStateException("the pool's main thread is adopted already");
        }
        POOL.add(Thread.currentThread());
    }

    public static Thread start(String name, Runnable body) {
        Thread thread = create(name, body);
        thread.start();
        return thread;
    }

    /** A daemon thread, not yet started (for thread factories): a pool thread if a pool thread makes it. */
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
        if (isPoolThread(Thread.currentThread())) {
            POOL.add(thread);
        }
        return thread;
    }

    public static boolean isPoolThread(Thread thread) {
        return POOL.contains(thread);
    }
}
