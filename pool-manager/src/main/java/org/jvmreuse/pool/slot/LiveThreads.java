package org.jvmreuse.pool.slot;

import java.util.Arrays;
import java.util.List;

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
}
