package org.jvmreuse.pool.slot;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jvmreuse.pool.os.Native;

/**
 * A run's soft resource limits on the slot's process, for the run only, and put back after it;
 * which ones, and whether a slot can give them at all, {@link org.jvmreuse.pool.admission.RunLimits} decides.
 */
final class ResourceLimits {
    /** The slot's soft and hard limits that a run changed, to put back. */
    private final Map<String, long[]> saved = new LinkedHashMap<>();

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
}
