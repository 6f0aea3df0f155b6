package org.jvmreuse.pool.admission;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A run's {@code -Xss}, which a slot gives its main thread. */
public final class StackSize {
    private static final Pattern SIZE = Pattern.compile("([0-9]{1,12})([kKmMgGtT]?)");
    /** Smaller values go to a new JVM, which may well refuse them (its minimum depends on the JDK). */
    private static final long MIN_STACK = 256 * 1024;

    private StackSize() {
    }

    /** {@code -Xss}'s value in bytes, 0 for none (the JVM's default); throws {@link NotAdmitted} for what only a new JVM can judge. */
    public static long bytes(String text) {
        if (text.isEmpty()) {
            return 0;
        }
        Matcher m = SIZE.matcher(text);
        if (!m.matches()) {
            throw new NotAdmitted("-Xss" + text + " is no size; only a new JVM can report that");
        }
        String unit = m.group(2).toLowerCase(Locale.ROOT);
        int shift = unit.isEmpty() ? 0 : 10 * ("kmgt".indexOf(unit) + 1);
        long value = Long.parseLong(m.group(1));
        if (value > Long.MAX_VALUE >> shift) {
            throw new NotAdmitted("-Xss" + text + " is too large; only a new JVM can report that");
        }
        long size = value << shift;
        if (size < MIN_STACK) {
            throw new NotAdmitted("-Xss" + text + " is below what a slot takes (256k); only a new JVM knows its minimum");
        }
        return size;
    }
}
