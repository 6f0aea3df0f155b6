package org.jvmreuse.pool.jdk;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import org.jvmreuse.pool.common.PoolThreads;

/** The live platform threads of a thread group and its subgroups. */
public final class LiveThreads {
    private LiveThreads() {
    }

    public static List<Thread> in(ThreadGroup group) {
        Thread[] threads = new Thread[group.activeCount() + 16];
        int n;
        // enumerate fills at most the array: a full array may have missed threads started meanwhile
        while ((n = group.enumerate(threads, true)) == threads.length) {
            threads = new Thread[threads.length * 2];
        }
        return Arrays.asList(threads).subList(0, n);
    }

    /**
     * The JDK threads that outlive runs and can run a run's code: common-pool workers (a run's
     * parallel streams and CompletableFutures), and the threads outside the slot's thread group
     * (the process reaper runs a run's onExit actions, the signal dispatcher its signal handlers).
     */
    public static List<Thread> jdkThreads(ThreadGroup slotGroup) {
        List<Thread> jdk = new ArrayList<>();
        for (Thread t : in(root(slotGroup))) {
            ThreadGroup group = t.getThreadGroup();
            if (!PoolThreads.isPoolThread(t) && group != null
                    && (isCommonPoolWorker(t) || !slotGroup.parentOf(group))) {
                jdk.add(t);
            }
        }
        return jdk;
    }

    /** The system thread group, the root of {@code group}'s tree. */
    public static ThreadGroup root(ThreadGroup group) {
        ThreadGroup root = group;
        while (root.getParent() != null) {
            root = root.getParent();
        }
        return root;
    }

    public static boolean isCommonPoolWorker(Thread t) {
        return t instanceof ForkJoinWorkerThread worker && worker.getPool() == ForkJoinPool.commonPool();
    }
}
