package org.jvmreuse.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * java.net, security, JNDI and java.beans registries a run changes (set-once factories included)
 * are what a new JVM shows in the next run on the same slot, on Java 17 and on the newest JDK.
 */
class NetStateTest extends OneSlotPoolTest {
    private static final String PROBE = "org.jvmreuse.it.programs.NetStateProbe";

    @Test
    void aRunAfterOneThatChangedEveryRegistrySeesThemAsANewJvm() throws Exception {
        assertChangeThenProbeAsFresh(pool);
    }

    @Test
    void theSameOnTheNewestJdk() throws Exception {
        String newest = Jdks.newest();
        Assumptions.assumeTrue(newest != null && Jdks.major(newest) != Jdks.major(Jdks.DEFAULT), "no other JDK installed");
        try (Pool onNewest = Pool.start(1, newest)) {
            assertChangeThenProbeAsFresh(onNewest);
        }
    }

    private static void assertChangeThenProbeAsFresh(Pool in) throws Exception {
        Pool.Result fresh = Pool.exec(List.of(in.java, "-cp", Pool.PROGRAMS, PROBE, "probe"), Map.of(), null, 60);
        assertEquals(0, fresh.code(), fresh.toString());
        for (int i = 0; i < 2; i++) { // twice: what the probe itself sets must be put back as well
            Pool.Result change = in.program("NetStateProbe", "change");
            assertEquals(0, change.code(), change.toString());
            assertEquals("changed\n", change.out(), change.toString());
            Pool.Result probe = in.program("NetStateProbe", "probe");
            assertEquals(0, probe.code(), probe.toString());
            assertTrue(probe.err().contains("running in slot 0"), "same slot: " + probe.err());
            assertEquals(fresh.out(), probe.out());
        }
        String status = in.status();
        assertTrue(status.contains("retired 0)"), status);
    }
}
