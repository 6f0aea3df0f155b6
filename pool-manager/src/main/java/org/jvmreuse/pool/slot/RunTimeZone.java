package org.jvmreuse.pool.slot;

import java.lang.management.ManagementFactory;
import java.util.Map;
import java.util.TimeZone;

/**
 * The default time zone a new JVM would pick for a run, as {@code TimeZone.setDefaultZone} does:
 * {@code -Duser.timezone}, else the run's {@code TZ} (a leading ':' and Linux's "posix/" dropped),
 * else the platform's. A run whose {@code TZ} is the slot's gets the zone the slot's JVM derived
 * from it. A zone the JDK would derive from the C library instead (an unknown ID, a POSIX rule
 * such as {@code JST-9}, the platform's zone when the slot itself had TZ) is refused: only a new
 * JVM gets it right.
 */
final class RunTimeZone {
    private final String slotTz = tz(System.getenv());
    /** The zone the slot's JVM derived from its TZ (or the platform), unless it was given one with -D. */
    private final TimeZone slotZone = startedWithTimeZone() ? null : TimeZone.getDefault();

    /** The run's zone, given its {@code -D} properties and environment. */
    TimeZone of(Map<String, String> properties, Map<String, String> environment) {
        String given = properties.getOrDefault("user.timezone", "");
        if (!given.isEmpty()) {
            return known(given, "-Duser.timezone=" + given);
        }
        String runTz = tz(environment);
        if (runTz.equals(slotTz) && slotZone != null) {
            return (TimeZone) slotZone.clone();
        }
        if (!runTz.isEmpty()) {
            String id = runTz.startsWith(":") ? runTz.substring(1) : runTz;
            return known(id.startsWith("posix/") ? id.substring(6) : id, "TZ=" + runTz);
        }
        throw new Refused("the run's time zone is the platform's, which this slot does not know (it was started "
                + "with TZ or -Duser.timezone)");
    }

    private static TimeZone known(String id, String what) {
        TimeZone zone = TimeZone.getTimeZone(id);
        if (zone.getID().equals("GMT") && !id.equals("GMT")) {
            throw new Refused(what + " is no time zone ID the JDK knows; only a new JVM derives the zone from the C library");
        }
        return zone;
    }

    private static String tz(Map<String, String> environment) {
        return environment.getOrDefault("TZ", "");
    }

    private static boolean startedWithTimeZone() {
        return ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .anyMatch(arg -> arg.startsWith("-Duser.timezone="));
    }
}
