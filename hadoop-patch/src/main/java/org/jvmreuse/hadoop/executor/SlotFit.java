package org.jvmreuse.hadoop.executor;

import java.util.List;
import org.jvmreuse.pool.admission.HeapOption;
import org.jvmreuse.pool.admission.NotAdmitted;

/**
 * Whether a task fits in a pool slot. A pooled task's memory is the slot's: its heap is the slot
 * heap whatever its {@code -Xmx}, and the NodeManager sees only the client. So a task goes to a
 * slot only if the slot gives it at least what YARN and its own JVM options promise: its
 * {@code -Xmx} is within the slot heap (the pool's own admission rule, {@link HeapOption}, which
 * the pool applies again to whatever reaches it), and, as only YARN knows: without {@code -Xmx},
 * the JVM's default of a quarter of the node's memory is within the slot heap, and its
 * container's memory is within what a slot stands for. Otherwise the task starts in a new JVM,
 * where it gets exactly that.
 */
final class SlotFit {
    private final long slotHeapBytes;
    private final long slotMemoryMb;
    private final long defaultHeapBytes;

    /** {@code defaultHeapBytes}: the heap a JVM on this node gets without {@code -Xmx}. */
    SlotFit(long slotHeapBytes, long slotMemoryMb, long defaultHeapBytes) {
        this.slotHeapBytes = slotHeapBytes;
        this.slotMemoryMb = slotMemoryMb;
        this.defaultHeapBytes = defaultHeapBytes;
    }

    /**
     * Why a task with these JVM options (the words before its main class) and a container of
     * {@code containerMb} must start in a new JVM, or null if a slot gives it what it asks for.
     */
    String stockReason(String jvmOptions, long containerMb) {
        List<String> options = List.of(jvmOptions.trim().split("\\s+"));
        try {
            HeapOption.check(options, slotHeapBytes);
        } catch (NotAdmitted e) {
            return e.getMessage();
        }
        if (HeapOption.last(options) == null && defaultHeapBytes > slotHeapBytes) {
            return "without -Xmx its JVM would get a heap of " + mb(defaultHeapBytes) + " above the slot heap of " + mb(slotHeapBytes);
        }
        if (containerMb > slotMemoryMb) {
            return "its container has " + containerMb + " MB, more than a slot's " + slotMemoryMb + " MB";
        }
        return null;
    }

    private static String mb(long bytes) {
        return (bytes >> 20) + " MB";
    }
}
