package org.jvmreuse.pool.admission;

import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The heap a run's JVM options ask for: the last {@code -Xmx} or {@code -XX:MaxHeapSize=}, as the
 * JVM takes it. A slot's heap is the run's whatever it asks, so a run that asks for more than
 * its slot has is not admitted: in a new JVM it would get what it asks for. The NodeManager's pool
 * executor applies the same rule before it hands a container to the pool (hadoop-patch's
 * {@code SlotFit}), adding what only YARN knows.
 */
public final class HeapOption {
    private static final Pattern OPTION = Pattern.compile("-Xmx(\\S+)|-XX:MaxHeapSize=(\\S+)");
    private static final Pattern SIZE = Pattern.compile("([0-9]{1,15})([kKmMgGtT]?)");

    private HeapOption() {
    }

    /** Throws {@link NotAdmitted} if {@code jvmOptions} ask for more heap than {@code slotHeapBytes}. */
    public static void check(List<String> jvmOptions, long slotHeapBytes) {
        String asked = last(jvmOptions);
        if (asked == null) {
            return; // the slot's heap stands for the default a new JVM would choose
        }
        Matcher m = OPTION.matcher(asked);
        long heap = m.matches() ? bytes(m.group(1) != null ? m.group(1) : m.group(2)) : -1;
        if (heap < 0) {
            throw new NotAdmitted("its heap option " + asked + " cannot be read; only a new JVM can report that");
        }
        if (heap > slotHeapBytes) {
            throw new NotAdmitted("its heap " + asked + " is above the slot heap of " + (slotHeapBytes >> 20) + " MB");
        }
    }

    /** The option among {@code jvmOptions} that sets the heap (the last, as the JVM takes it), or null. */
    public static String last(List<String> jvmOptions) {
        String asked = null;
        for (String option : jvmOptions) {
            if (OPTION.matcher(option).matches()) {
                asked = option;
            }
        }
        return asked;
    }

    /** A size as {@code -Xmx} takes it (bytes, or with k, m, g, t), or -1. */
    public static long bytes(String value) {
        Matcher m = SIZE.matcher(value);
        if (!m.matches()) {
            return -1;
        }
        long n = Long.parseLong(m.group(1));
        int shift = switch (m.group(2).toLowerCase(Locale.ROOT)) {
            case "k" -> 10;
            case "m" -> 20;
            case "g" -> 30;
            case "t" -> 40;
            default -> 0;
        };
        return n > Long.MAX_VALUE >> shift ? -1 : n << shift;
    }
}
