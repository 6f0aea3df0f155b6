package org.jvmreuse.pool.slot;

import java.util.Map;
import java.util.TimeZone;
import org.jvmreuse.pool.admission.NotAdmitted;
import org.jvmreuse.pool.admission.RunZone;
import org.jvmreuse.pool.admission.SlotProfile;

/**
 * The default time zone of an admitted run ({@link RunZone} decides it): the zone the slot's JVM
 * derived at its start, when the run's {@code TZ} is the slot's, else the one the run names.
 */
final class RunTimeZone {
    private final SlotProfile slot;
    /** The zone the slot's JVM derived from its TZ (or the platform), unless it was given one with -D. */
    private final TimeZone slotZone;

    RunTimeZone(SlotProfile slot) {
        this.slot = slot;
        this.slotZone = slot.zoneFromOption() ? null : TimeZone.getDefault();
    }

    /** The run's zone, given its {@code -D} properties and environment. */
    TimeZone of(Map<String, String> properties, Map<String, String> environment) {
        TimeZone zone;
        try {
            zone = RunZone.of(properties, environment, slot);
        } catch (NotAdmitted e) {
            throw new Refused(e.getMessage());
        }
        return zone != null ? zone : (TimeZone) slotZone.clone();
    }
}
