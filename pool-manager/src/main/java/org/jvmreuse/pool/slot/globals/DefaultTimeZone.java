package org.jvmreuse.pool.slot.globals;

import java.util.TimeZone;

/** {@code TimeZone.setDefault}. */
final class DefaultTimeZone implements GlobalState {
    @Override
    public String name() {
        return "default TimeZone";
    }

    @Override
    public Snapshot capture() {
        TimeZone before = TimeZone.getDefault(); // a copy, which setRawOffset on the default cannot touch
        return runLoader -> {
            TimeZone.setDefault(before);
            return null;
        };
    }
}
