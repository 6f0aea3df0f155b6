package org.jvmreuse.hadoop.executor;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Whether a task fits in a pool slot. A pooled task's memory is the slot's: its heap is the slot
 * heap whatever its {@code -Xmx}, and the NodeManager sees only the client. So a task goes to a
 * slot only if the slot gives it at least what YARN and its own JVM options promise: its
 * {@code -Xmx} (the last one, as the JVM takes it; without one, the JVM's default of a quarter
 * of the node's memory) is within the slot heap, and its container's memory is within what a
 * slot stands for. Otherwise the task starts in a new JVM, where it gets exactly that.
 */
final class SlotFit {
    private static final Pattern SIZE = Pattern.compile("([0-9]+)([kKmMgGtT]?)");
    private static final Pattern HEAP_OPTION = Pattern.compile("-Xmx(\\S+)|-XX:MaxHeapSize=(\\S+)");

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
        long heap = defaultHeapBytes;
        String asked = null;
        for (String word : jvmOptions.trim().split("\\s+")) {
            Matcher m = HEAP_OPTION.matcher(word);
            if (m.matches()) {
                asked = word;
                heap = parseSize(m.group(1) != null ? m.group(1) : m.group(2));
                if (heap < 0) {
                    return "its heap option " + word + " cannot be read";
                }
            }
        }
        if (heap > slotHeapBytes) {
            return (asked == null ? "without -Xmx its JVM would get a heap of " + mb(heap)
                    : "its heap " + asked + " is above") + " the slot heap of " + mb(slotHeapBytes);
        }
        if (containerMb > slotMemoryMb) {
            return "its container has " + containerMb + " MB, more than a slot's " + slotMemoryMb + " MB";
        }
        return null;
    }

    /** A size as {@code -Xmx} takes it (bytes, or with k, m, g, t), or -1. */
    static long parseSize(String value) {
        Matcher m = SIZE.matcher(value);
        if (!m.matches() || m.group(1).length() > 15) {
            return -1;
        }
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2).toLowerCase(Locale.ROOT)) {
            case "k" -> n << 10;
            case "m" -> n << 20;
            case "g" -> n << 30;
            case "t" -> n << 40;
            default -> n;
        };
    }

    private static String mb(long bytes) {
        return (bytes >> 20) + " MB";
    }
}
