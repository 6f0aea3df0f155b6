package org.jvmreuse.pool.admission;

/** One resource limit, soft and hard, -1 for unlimited. */
public record ResourceLimit(long soft, long hard) {
    /** {@code unlimited} or a number, as the client sends them. */
    public static long parse(String text) {
        return text.equals("unlimited") ? -1 : Long.parseUnsignedLong(text);
    }

    public static String text(long value) {
        return value < 0 ? "unlimited" : Long.toString(value);
    }
}
