package org.jvmreuse.pool.slot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.jvmreuse.pool.admission.TestProfiles;

/** The default time zone of a run, as TimeZone.setDefaultZone picks it in a new JVM. */
class RunTimeZoneTest {
    private final RunTimeZone zones = new RunTimeZone(TestProfiles.withTz(System.getenv().getOrDefault("TZ", "")));

    @Test
    void propertyFirstThenTz() {
        assertEquals("Asia/Tokyo", zones.of(Map.of("user.timezone", "Asia/Tokyo"), Map.of("TZ", "Europe/Paris")).getID());
        assertEquals("Europe/Paris", zones.of(Map.of("user.timezone", ""), Map.of("TZ", "Europe/Paris")).getID());
        assertEquals("GMT+09:00", zones.of(Map.of("user.timezone", "GMT+9"), Map.of()).getID());
    }

    @Test
    void tzAsTheJdkReadsItOnLinux() {
        assertEquals("America/New_York", zones.of(Map.of(), Map.of("TZ", ":America/New_York")).getID());
        assertEquals("Asia/Tokyo", zones.of(Map.of(), Map.of("TZ", "posix/Asia/Tokyo")).getID());
    }

    @Test
    void theSlotsOwnTzGivesTheZoneTheSlotsJvmDerivedFromIt() {
        assertEquals(java.util.TimeZone.getDefault(), zones.of(Map.of(), System.getenv()));
    }

    @Test
    void zonesTheJdkWouldTakeFromTheCLibraryNeedANewJvm() {
        assertThrows(Refused.class, () -> zones.of(Map.of(), Map.of("TZ", "JST-9")));
        assertThrows(Refused.class, () -> zones.of(Map.of("user.timezone", "Nowhere/Special"), Map.of()));
    }
}
