package org.jvmreuse.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * java.net, security, JNDI and java.beans registries a run changes (set-once factories included)
 * are what a new JVM shows in the next run on the same slot, on Java 17 and on the newest JDK; what
 * the slot cannot put back (what the JDK made of a property it reads once, set by a run) retires it.
 */
class NetStateTest extends OneSlotPoolTest {
    private static final String PROBE = "org.jvmreuse.it.programs.NetStateProbe";
    private static final String TLS = "org.jvmreuse.it.programs.TlsDefault";
    private static final String PROTOCOLS = "org.jvmreuse.it.programs.TlsProtocols";

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

    /**
     * The JDK makes its default TLS key and trust managers once per JVM, from the trust store
     * properties of that moment, and a TLS client's protocols from {@code jdk.tls.client.protocols}:
     * a run that set one in its code retires its slot, and the next run sees what a new JVM does
     * (here the slot would have kept the run's broken store, or its protocols, for every later run).
     */
    @Test
    void aRunThatSetAPropertyTheJdkReadsOnceRetiresItsSlot() throws Exception {
        Path junk = Files.createTempFile("jrt-junk", ".ks");
        Files.writeString(junk, "no key store\n");
        try (Pool own = Pool.start(1, Jdks.DEFAULT, "", Map.of("JVMREUSE_SPARES", "2"))) { // a spare for each retired slot
            Pool.Result fresh = Pool.exec(List.of(own.java, "-cp", Pool.PROGRAMS, TLS), Map.of(), null, 60);
            assertEquals("default TLS context: Default\n", fresh.out(), fresh.toString());
            Pool.Result set = own.program("TlsDefault", junk.toString());
            assertTrue(set.out().startsWith("no default TLS context: ") && set.err().contains("running in slot 0"), set.toString());
            own.awaitStatus("replacements: 1 made", 10_000);
            String status = own.status();
            assertTrue(status.contains("the run changed javax.net.ssl.trustStore, which the JDK reads once per JVM"), status);
            Pool.Result freshProtocols = Pool.exec(List.of(own.java, "-cp", Pool.PROGRAMS, PROTOCOLS), Map.of(), null, 60);
            Pool.Result older = own.program("TlsProtocols", "TLSv1.2"); // the first run with TLS on the spare that took over
            assertEquals("client protocols: [TLSv1.2]\n", older.out(), older.toString());
            own.awaitStatus("replacements: 2 made", 10_000);
            assertTrue(own.status().contains("the run changed jdk.tls.client.protocols, which the JDK reads once"), own.status());

            Pool.Result next = own.program("TlsDefault");
            assertEquals(fresh.out(), next.out(), next.toString());
            assertTrue(next.err().contains("running in slot"), next.toString());
            Pool.Result after = own.program("TlsProtocols");
            assertEquals(freshProtocols.out(), after.out(), after.toString());
            assertTrue(after.err().contains("running in slot"), after.toString());
        } finally {
            Files.delete(junk);
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
