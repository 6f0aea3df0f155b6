package org.jvmreuse.pool.admission;

import java.util.Map;
import java.util.TimeZone;

/**
 * The default time zone a new JVM would pick for a run, as {@code TimeZone.setDefaultZone} does:
 * {@code -Duser.timezone}, else the run's {@code TZ} (a leading ':' and Linux's "posix/" dropped),
 * else the platform's. A run whose {@code TZ} is the slot's gets the zone the slot's JVM derived
 * from it. A zone the JDK would derive from the C library instead (an unknown ID, a POSIX rule
 * such as {@code JST-9}, the platform's zone when the slot itself had TZ) is not admitted: only a
 * new JVM gets it right.
 */
public final class RunZone {
    private RunZone() {
    }

    /**
     * The run's zone given its {@code -D} properties and environment, or null for the zone the
     * slot's JVM derived at its start; throws {@link NotAdmitted} when only a new JVM gets it right.
     */
    public static TimeZone of(Map<String, String> properties, Map<String, String> environment, SlotProfile slot) {
        String given = properties.getOrDefault("user.timezone", "");
        if (!given.isEmpty()) {
            return known(given, "-Duser.timezone=" + given);
        }
        String runTz = environment.getOrDefault("TZ", "");
        if (runTz.equals(slot.tz()) && !slot.zoneFromOption()) {
            return null;
        }
        if (!runTz.isEmpty()) {
            String id = runTz.startsWith(":") ? runTz.substring(1) : runTz;
            return known(id.startsWith("posix/") ? id.substring(6) : id, "TZ=" + runTz);
        }
        throw new NotAdmitted("the run's time zone is the platform's, which this slot does not know (it was started "
                + "with TZ or -Duser.timezone)");
    }

    private static TimeZone known(String id, String what) {
        TimeZone zone = TimeZone.getTimeZone(id);
        if (zone.getID().equals("GMT") && !id.equals("GMT")) {
            throw new NotAdmitted(what + " is no time zone ID the JDK knows; only a new JVM derives the zone from the C library");
        }
        return zone;
    }
}
