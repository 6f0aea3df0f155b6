package org.jvmreuse.pool.slot;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import org.jvmreuse.boot.TaskExit;
import org.jvmreuse.pool.PoolThreads;

/**
 * Finds and ends the threads that belong to runs: every live thread of the application's
 * thread groups that is neither a pool thread nor a worker of the JDK's shared common pool.
 * (JVM service threads live in the "system" group and are never touched.)
 */
final class TaskThreads {
    private static final long RESTOP_MILLIS = 100;
    private final ThreadGroup applicationGroup;

    TaskThreads(ThreadGroup applicationGroup) {
        this.applicationGroup = applicationGroup;
    }

    List<Thread> live() {
        Thread[] threads = new Thread[applicationGroup.activeCount() + 16];
        int n;
        while ((n = applicationGroup.enumerate(threads, true)) == threads.length) {
            threads = new Thread[threads.length * 2];
        }
        List<Thread> task = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Thread t = threads[i];
            if (t.isAlive() && !PoolThreads.isPoolThread(t) && !isCommonPoolWorker(t)) {
                task.add(t);
            }
        }
        return task;
    }

    List<Thread> liveNonDaemon() {
        List<Thread> threads = live();
        threads.removeIf(Thread::isDaemon);
        return threads;
    }

    private static boolean isCommonPoolWorker(Thread t) {
        return t instanceof ForkJoinWorkerThread worker && worker.getPool() == ForkJoinPool.commonPool();
    }

    /**
     * Ends every task thread: first an interrupt, then an asynchronous {@link TaskExit} through
     * JVMTI, repeated every {@link #RESTOP_MILLIS} because some threads catch everything and
     * loop (Hadoop's task reporter gives up only after three failures in a row). Returns the
     * threads still alive after {@code waitMillis} (a thread stuck in native code, say); a slot
     * with such threads cannot be reused safely.
     */
    List<Thread> endAll(long waitMillis) throws InterruptedException {
        List<Thread> threads = live();
        if (threads.isEmpty()) {
            return threads;
        }
        threads.forEach(Thread::interrupt);
        long deadline = System.currentTimeMillis() + waitMillis;
        joinUntil(threads, Math.min(deadline, System.currentTimeMillis() + 50));
        while (System.currentTimeMillis() < deadline) {
            threads.removeIf(t -> !t.isAlive());
            if (threads.isEmpty()) {
                break;
            }
            for (Thread t : threads) {
                Native.stopThread(t, new TaskExit(-1));
            }
            joinUntil(threads, Math.min(deadline, System.currentTimeMillis() + RESTOP_MILLIS));
        }
        threads.removeIf(t -> !t.isAlive());
        return threads;
    }

    private static void joinUntil(List<Thread> threads, long deadline) throws InterruptedException {
        for (Thread t : threads) {
            long left = deadline - System.currentTimeMillis();
            if (left <= 0) {
                return;
            }
            t.join(left);
        }
    }
}
