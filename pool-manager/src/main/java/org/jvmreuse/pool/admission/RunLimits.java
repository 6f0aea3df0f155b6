package org.jvmreuse.pool.admission;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A run's resource limits against its slot's. Only soft limits change for a run: an unprivileged
 * process cannot raise a hard limit it lowered, so a run whose hard limit differs from the slot's
 * is not admitted, nor one whose soft limit differs for a resource the slot's own use counts
 * against (CPU time so far, address space and data of a warm JVM), where a new JVM would fare
 * otherwise.
 */
public final class RunLimits {
    /** The limits a slot reports and a client sends, by the names of startup_settings.h. */
    public static final List<String> NAMES = List.of("cpu", "fsize", "data", "stack", "core", "rss", "nproc", "nofile",
            "memlock", "as", "locks", "sigpending", "msgqueue", "nice", "rtprio", "rttime");
    private static final Set<String> PER_RUN = Set.of("fsize", "stack", "core", "rss", "nproc", "nofile", "memlock",
            "locks", "sigpending", "msgqueue", "nice", "rtprio", "rttime");

    private RunLimits() {
    }

    /**
     * The soft limits to set for a run ({@code name:soft:hard} each, as sent) in a slot with
     * {@code slot}'s limits, by name; throws {@link NotAdmitted} for one that needs a new JVM.
     */
    public static Map<String, Long> changes(List<String> runLimits, Map<String, ResourceLimit> slot) {
        Map<String, Long> changes = new LinkedHashMap<>();
        for (String limit : runLimits) {
            String[] parts = limit.split(":");
            String name = parts[0];
            long soft = ResourceLimit.parse(parts[1]);
            long hard = ResourceLimit.parse(parts[2]);
            ResourceLimit own = slot.get(name);
            if (own == null) {
                throw new NotAdmitted("the resource limit " + name + " is unknown to the slot");
            }
            if (name.equals("nofile")) {
                soft = hard; // as HotSpot raises it at start-up (-XX:+MaxFDLimit)
            }
            if (hard != own.hard()) {
                throw new NotAdmitted("the run's hard limit of " + name + " (" + parts[2] + ") is not the slot's ("
                        + ResourceLimit.text(own.hard()) + ")");
            }
            if (soft != own.soft()) {
                if (!PER_RUN.contains(name)) {
                    throw new NotAdmitted("the run's limit of " + name + " (" + parts[1] + ") is not the slot's ("
                            + ResourceLimit.text(own.soft()) + "), and the slot's own use counts against it");
                }
                changes.put(name, soft);
            }
        }
        return changes;
    }
}
