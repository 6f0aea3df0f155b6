package org.jvmreuse.pool.slot;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jvmreuse.pool.os.Native;

/**
 * A run's resource limits on the slot's process, for the run only. Only soft limits change: an
 * unprivileged process cannot raise a hard limit it lowered, so a run whose hard limit differs
 * from the slot's is refused, and so is one whose soft limit differs for a resource the slot's
 * own use counts against (CPU time so far, address space and data of a warm JVM), where a new
 * JVM would fare otherwise.
 */
final class ResourceLimits {
    private static final Set<String> PER_RUN = Set.of("fsize", "stack", "core", "rss", "nproc", "nofile", "memlock",
            "locks", "sigpending", "msgqueue", "nice", "rtprio", "rttime");
    /** The slot's soft and hard limits that a run changed, to put back. */
    private final Map<String, long[]> saved = new LinkedHashMap<>();

    /** The soft limits to set for a run ({@code name:soft:hard} each), by name; refuses what cannot be set. */
    static Map<String, Long> changes(List<String> runLimits) {
        Map<String, Long> changes = new LinkedHashMap<>();
        for (String limit : runLimits) {
            String[] parts = limit.split(":");
            String name = parts[0];
            long soft = value(parts[1]);
            long hard = value(parts[2]);
            long[] slot = Native.limit(name);
            if (slot == null) {
                throw new Refused("the resource limit " + name + " is unknown to the slot");
            }
            if (name.equals("nofile")) {
                soft = hard; // as HotSpot raises it at start-up (-XX:+MaxFDLimit)
            }
            if (hard != slot[1]) {
                throw new Refused("the run's hard limit of " + name + " (" + parts[2] + ") is not the slot's ("
                        + text(slot[1]) + ")");
            }
            if (soft != slot[0]) {
                if (!PER_RUN.contains(name)) {
                    throw new Refused("the run's limit of " + name + " (" + parts[1] + ") is not the slot's (" + text(slot[0])
                            + "), and the slot's own use counts against it");
                }
                changes.put(name, soft);
            }
        }
        return changes;
    }

    void apply(Map<String, Long> changes) {
        changes.forEach((name, soft) -> {
            long[] slot = Native.limit(name);
            saved.put(name, slot);
            int result = Native.setLimit(name, soft, slot[1]);
            if (result != 0) {
                throw new IllegalStateException("setrlimit " + name + " failed: errno " + -result);
            }
        });
    }

    /** Puts back what {@link #apply} changed; returns what could not be. */
    List<String> restore() {
        List<String> failed = new ArrayList<>();
        saved.forEach((name, limit) -> {
            if (Native.setLimit(name, limit[0], limit[1]) != 0) {
                failed.add(name);
            }
        });
        saved.clear();
        return failed;
    }

    private static long value(String text) {
        return text.equals("unlimited") ? -1 : Long.parseUnsignedLong(text);
    }

    private static String text(long value) {
        return value < 0 ? "unlimited" : Long.toString(value);
    }
}
