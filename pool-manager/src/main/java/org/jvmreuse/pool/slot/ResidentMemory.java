package org.jvmreuse.pool.slot;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jvmreuse.pool.common.PoolLog;
import org.jvmreuse.pool.os.Native;

/**
 * Whether a slot's resident memory came back after a run. Memory a run took outside the heap
 * (malloc in native code, Unsafe, direct buffers a static keeps, thread stacks) stays with the
 * slot, and the next run would start with it, in a container sized for one task: so a slot whose
 * resident size after a run stays more than the margin above its idle size (measured after its
 * warm-up) plus its committed heap, which later runs may touch, retires, and a spare takes its
 * place. Before judging, it collects (direct buffers' cleaners run) and gives the C heap's free
 * memory back ({@code malloc_trim}). Reading the size costs one small /proc read per run.
 */
final class ResidentMemory {
    private static final long CLEANER_WAIT_MILLIS = 200;
    private final long margin;
    private long idle = -1;

    ResidentMemory(long marginBytes) {
        this.margin = marginBytes;
    }

    /** The slot is idle and warm: its size now is what later runs are judged against. */
    void markIdle() {
        idle = resident();
    }

    /** Null if the slot may serve on, otherwise why it must retire. */
    String afterRun() throws InterruptedException {
        if (idle < 0 || resident() <= limit()) {
            return null;
        }
        System.gc();
        Thread.sleep(CLEANER_WAIT_MILLIS);
        Native.mallocTrim();
        long now = resident();
        String state = String.format("%d MiB resident after the run; idle %d MiB, heap %d MiB, margin %d MiB",
                now >> 20, idle >> 20, heap() >> 20, margin >> 20);
        if (now > limit()) {
            return "a run left memory outside the heap: " + state;
        }
        PoolLog.get().info("a run's memory outside the heap came back after a collection: " + state);
        return null;
    }

    private long limit() {
        return idle + heap() + margin;
    }

    private static long heap() {
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getCommitted();
    }

    /** VmRSS of this process, in bytes (-1 if unreadable, which never retires a slot). */
    static long resident() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) << 10;
                }
            }
        } catch (IOException | NumberFormatException e) {
            PoolLog.get().warn("cannot read this slot's resident memory: " + e);
        }
        return -1;
    }
}
