package org.jvmreuse.pool.slot;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.List;
import org.jvmreuse.pool.common.Faults;
import org.jvmreuse.pool.common.PoolLog;

/**
 * Whether a slot may serve on after a run that filled its heap or its direct memory. A run's
 * memory is garbage once its threads have ended and its loader is closed, so a slot usually
 * recovers: after such a run (the old generation still over 90% full after a collection, more
 * than half the direct memory in use, or the pool's emergency reserve spent) it runs a full GC
 * and lets the direct buffers' cleaners work for up to a second; if more than half the heap or
 * the direct memory is still in use then, something outlived the run (a static of a shared
 * library, a stuck reference) and the slot retires. Checking costs nothing after ordinary runs.
 */
final class MemoryCheck {
    private static final double NEAR_FULL = 0.9;
    private static final double STILL_FULL = 0.5;
    private static final long CLEANER_WAIT_MILLIS = 1000;

    private final List<MemoryPoolMXBean> heapPools;
    private final BufferPoolMXBean direct;
    private final long maxDirect;
    private final long maxHeap = Runtime.getRuntime().maxMemory();
    private long crossings;

    MemoryCheck() {
        heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(p -> p.getType() == MemoryType.HEAP && p.isCollectionUsageThresholdSupported()
                        && p.getUsage().getMax() > 0)
                .toList();
        for (MemoryPoolMXBean pool : heapPools) {
            pool.setCollectionUsageThreshold((long) (pool.getUsage().getMax() * NEAR_FULL));
        }
        crossings = crossings();
        direct = ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream()
                .filter(b -> b.getName().equals("direct")).findFirst().orElseThrow();
        long configured = Long.parseLong(ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
                .getVMOption("MaxDirectMemorySize").getValue());
        maxDirect = configured > 0 ? configured : maxHeap; // the JDK's default
    }

    /** Null if the slot may take another run, otherwise why it must retire. */
    String afterRun() throws InterruptedException {
        long now = crossings();
        boolean heapFilled = now != crossings;
        crossings = now;
        boolean directFilled = direct.getMemoryUsed() > maxDirect * STILL_FULL;
        boolean reserveSpent = !Faults.rearm();
        if (!heapFilled && !directFilled && !reserveSpent) {
            return null;
        }
        System.gc();
        long deadline = System.currentTimeMillis() + CLEANER_WAIT_MILLIS;
        while (direct.getMemoryUsed() > maxDirect * STILL_FULL && System.currentTimeMillis() < deadline) {
            Thread.sleep(20);
        }
        long heapUsed = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        long directUsed = direct.getMemoryUsed();
        String state = String.format("after a full GC %d of %d MiB heap and %d of %d MiB direct memory in use",
                heapUsed >> 20, maxHeap >> 20, directUsed >> 20, maxDirect >> 20);
        crossings = crossings();
        if (heapUsed > maxHeap * STILL_FULL || directUsed > maxDirect * STILL_FULL || !Faults.rearm()) {
            return "a run filled the memory and it did not come back: " + state;
        }
        PoolLog.get().info("a run filled the memory; the slot recovered: " + state);
        return null;
    }

    private long crossings() {
        long sum = 0;
        for (MemoryPoolMXBean pool : heapPools) {
            sum += pool.getCollectionUsageThresholdCount();
        }
        return sum;
    }
}
