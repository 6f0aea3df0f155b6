package org.jvmreuse.pool.slot;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.function.LongSupplier;
import java.util.stream.Stream;
import org.jvmreuse.boot.TaskExit;
import org.jvmreuse.pool.common.PoolThreads;
import org.jvmreuse.pool.jdk.JdkInternals;
import org.jvmreuse.pool.jdk.LiveThreads;
import org.jvmreuse.pool.os.Native;

/**
 * Finds and ends the threads that belong to runs, wherever they live: those {@link RunThreadOwners}
 * gives to a run (every platform thread started while the run was active, in any thread group),
 * every virtual thread (JDK 21+, found through the JDK's thread containers; the pool starts
 * none), and the threads of the application's thread groups (a library's run hook starts them
 * from the slot's runner). Pool threads, threads a shared library made for the slot and JDK
 * service threads are never touched. Workers of the JDK's shared common pool outlive runs: after
 * a run, those still running its tasks get the stop (which ends the task; the worker serves on),
 * the tasks it left queued are cancelled (their context loaders and thread state:
 * globals.JdkThreadState).
 */
final class TaskThreads {
    private static final long RESTOP_MILLIS = 100;
    private static final long VIRTUAL_STOP_NANOS = 20_000_000;
    /** Classes on an idle common-pool worker's stack (ForkJoinPool with its nested classes). */
    private static final Set<String> IDLE_WORKER_FRAMES = Set.of("java.util.concurrent.ForkJoinWorkerThread",
            "java.util.concurrent.locks.LockSupport", "jdk.internal.misc.Unsafe", "java.lang.Thread");

    private final ThreadGroup applicationGroup;
    private final ThreadGroup root;
    private final RunThreadOwners owners;
    private final Method drainTasks = JdkInternals.method("java.util.concurrent.ForkJoinPool", "drainTasksTo",
            java.util.Collection.class);
    private final VirtualThreads virtualThreads = new VirtualThreads();

    TaskThreads(ThreadGroup applicationGroup, RunThreadOwners owners) {
        this.applicationGroup = applicationGroup;
        this.owners = owners;
        this.root = LiveThreads.root(applicationGroup);
    }

    List<Thread> live() {
        List<Thread> task = new ArrayList<>();
        for (Thread t : allThreads()) {
            if (t.isAlive() && !PoolThreads.isPoolThread(t) && !LiveThreads.isCommonPoolWorker(t)
                    && !owners.isForSlot(t) && (inApplicationGroup(t) || owners.owner(t) != null || virtualThreads.isVirtual(t))) {
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

    private Set<Thread> allThreads() {
        Set<Thread> all = new LinkedHashSet<>(LiveThreads.in(root));
        virtualThreads.all().forEach(all::add);
        return all;
    }

    private boolean inApplicationGroup(Thread t) {
        ThreadGroup group = t.getThreadGroup(); // null once terminated
        return group != null && applicationGroup.parentOf(group);
    }

    /** Common-pool workers still running a task (anything but the pool's own idle loop). */
    private List<Thread> busyCommonPoolWorkers() {
        List<Thread> busy = new ArrayList<>();
        for (Thread t : allThreads()) {
            if (LiveThreads.isCommonPoolWorker(t) && t.isAlive()
                    && Stream.of(t.getStackTrace()).anyMatch(TaskThreads::taskFrame)) {
                busy.add(t);
            }
        }
        return busy;
    }

    private static boolean taskFrame(StackTraceElement frame) {
        String cls = frame.getClassName();
        return !cls.startsWith("java.util.concurrent.ForkJoinPool") && !IDLE_WORKER_FRAMES.contains(cls);
    }

    /**
     * Ends every task thread: first an interrupt, then an asynchronous {@link TaskExit} through
     * JVMTI, repeated every {@link #RESTOP_MILLIS} because some threads catch everything and
     * loop (Hadoop's task reporter gives up only after three failures in a row). The threads are
     * looked for again each round, so threads started meanwhile are ended too. Returns the
     * threads still alive at {@code deadline} (read again each round: a kill brings it closer),
     * a thread stuck in native code, say; a slot with such threads cannot be reused safely.
     */
    List<Thread> endAll(LongSupplier deadline) throws InterruptedException {
        cancelCommonPoolTasks();
        List<Thread> threads = toEnd();
        if (threads.isEmpty()) {
            return threads;
        }
        for (Thread t : threads) {
            silence(t);
            t.interrupt();
        }
        joinUntil(threads, Math.min(deadline.getAsLong(), System.currentTimeMillis() + 50));
        while (System.currentTimeMillis() < deadline.getAsLong()) {
            cancelCommonPoolTasks();
            threads = toEnd();
            if (threads.isEmpty()) {
                break;
            }
            for (Thread t : threads) {
                stop(t);
            }
            joinUntil(threads, Math.min(deadline.getAsLong(), System.currentTimeMillis() + RESTOP_MILLIS));
        }
        threads = toEnd();
        return threads;
    }

    /**
     * JVMTI stops a virtual thread only while it is mounted on a carrier (and suspended, which the
     * native side does), and a waiting one is not: the interrupt wakes it, and the stop is
     * retried for a moment until it runs.
     */
    private void stop(Thread t) {
        silence(t);
        t.interrupt();
        boolean stopped = Native.stopThread(t, new TaskExit(-1));
        long until = System.nanoTime() + VIRTUAL_STOP_NANOS;
        while (!stopped && virtualThreads.isVirtual(t) && t.isAlive() && System.nanoTime() < until) {
            Thread.onSpinWait();
            stopped = Native.stopThread(t, new TaskExit(-1));
        }
    }

    /**
     * A thread the slot ends dies quietly, as it would have vanished with the JVM: neither the
     * {@link TaskExit} nor what the stop broke on its way (a lock it was taking, say) is printed
     * (its thread group would print them to the run's stderr). Common-pool workers serve on:
     * a stop only ends the task they run, which keeps what it throws.
     */
    static void silence(Thread t) {
        if (!LiveThreads.isCommonPoolWorker(t)) {
            t.setUncaughtExceptionHandler((thread, e) -> { });
        }
    }

    private List<Thread> toEnd() {
        List<Thread> threads = live();
        threads.addAll(busyCommonPoolWorkers());
        return threads;
    }

    /**
     * Tasks a run left queued in the common pool would run during a later run; they are
     * cancelled. (A worker stopped inside a task only ends that task and serves on.)
     */
    private void cancelCommonPoolTasks() {
        List<ForkJoinTask<?>> queued = new ArrayList<>();
        try {
            drainTasks.invoke(ForkJoinPool.commonPool(), queued);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot drain the common pool", e);
        }
        queued.forEach(task -> task.cancel(false));
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
