package org.jvmreuse.hadoop.task;

import java.lang.ref.WeakReference;

/** Waits for the garbage collector to clear a reference. */
final class Collected {
    private Collected() {
    }

    static boolean within(WeakReference<?> ref, long millis) throws InterruptedException {
        long deadline = System.currentTimeMillis() + millis;
        while (ref.get() != null && System.currentTimeMillis() < deadline) {
            System.gc();
            Thread.sleep(20);
        }
        return ref.get() == null;
    }
}
