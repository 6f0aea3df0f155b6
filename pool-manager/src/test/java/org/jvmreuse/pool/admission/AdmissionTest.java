package org.jvmreuse.pool.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.jvmreuse.pool.protocol.JavaCommandLine;
import org.jvmreuse.pool.protocol.RunKind;
import org.jvmreuse.pool.protocol.RunSpec;
import org.jvmreuse.pool.protocol.StartupInputs;
import org.jvmreuse.pool.protocol.StreamPath;

/** The one rule that sends a run to a slot or to a new JVM, against a slot's profile. */
class AdmissionTest {
    private static final SlotProfile SLOT = TestProfiles.slot();

    private static RunSpec run(Map<String, String> properties, Map<String, String> environment, List<String> addOpens,
                               StartupInputs startup) {
        return withAccess(addOpens, List.of(), properties, environment, startup);
    }

    private static RunSpec withAccess(List<String> addOpens, List<String> addExports, Map<String, String> properties,
                                      Map<String, String> environment, StartupInputs startup) {
        StreamPath none = new StreamPath("/dev/null", null);
        return new RunSpec("app.Main", List.of("/opt/app.jar"), List.of(), List.of(), properties, environment, "/tmp",
                none, none, none, RunKind.TASK, addOpens, addExports, startup);
    }

    private static RunSpec withAccess(List<String> addOpens, List<String> addExports) {
        return withAccess(addOpens, addExports, Map.of(), Map.of(), StartupInputs.SLOT);
    }

    /** The run {@code spec} with the JVM options {@code fixed} before its main class. */
    private static String refusal(RunSpec spec, List<String> fixed, SlotProfile slot) {
        List<String> words = new ArrayList<>(fixed);
        words.add(spec.mainClass());
        return Admission.refusal(spec, JavaCommandLine.parse(words), slot);
    }

    private static RunSpec plain() {
        return run(Map.of(), Map.of(), List.of(), StartupInputs.SLOT);
    }

    private static StartupInputs startup(String xss, List<String> limits, String locale) {
        String[] parts = locale.split("\n");
        return new StartupInputs(xss, 022, limits, parts[0], parts[1], parts[2], List.of());
    }

    @Test
    void aRunLikeTheSlotIsAdmitted() {
        assertNull(refusal(plain(), List.of("-Xms64m", "-XX:+UseG1GC"), SLOT));
        assertNull(refusal(run(Map.of("file.encoding", "utf8"), Map.of(), List.of("java.base/java.lang"),
                startup("1m", List.of("nofile:512:4096", "core:unlimited:unlimited"), TestProfiles.LOCALE)), List.of(), SLOT));
    }

    @Test
    void theLastHeapOptionCountsAsTheJvmTakesIt() {
        assertNull(refusal(plain(), List.of("-Xmx4g", "-XX:MaxHeapSize=256m"), SLOT));
        assertEquals("its heap -Xmx257m is above the slot heap of 256 MB",
                refusal(plain(), List.of("-Xmx100m", "-Xmx257m"), SLOT));
        assertEquals("its heap option -Xmxlots cannot be read; only a new JVM can report that",
                refusal(plain(), List.of("-Xmxlots"), SLOT));
    }

    @Test
    void heapSizesReadAsTheJvmReadsThem() {
        assertEquals(-1, HeapOption.bytes("99999999999999999999"));
        assertEquals(-1, HeapOption.bytes("9999999999t"), "beyond a long");
        assertEquals(3L << 40, HeapOption.bytes("3T"));
        assertEquals(4096, HeapOption.bytes("4k"));
        assertEquals(123, HeapOption.bytes("123"));
        assertEquals(-1, HeapOption.bytes("12x"));
    }

    @Test
    void moduleAccessNeedsTheModuleAndPackageInTheSlots() {
        assertEquals("the pool's JVMs have no module jdk.nope (--add-opens jdk.nope/x=ALL-UNNAMED)",
                refusal(run(Map.of(), Map.of(), List.of("jdk.nope/x"), StartupInputs.SLOT), List.of(), SLOT));
        assertEquals("module java.sql has no package java.nope in the pool's JVMs (--add-opens java.sql/java.nope=ALL-UNNAMED)",
                refusal(run(Map.of(), Map.of(), List.of("java.sql/java.nope"), StartupInputs.SLOT), List.of(), SLOT));
    }

    @Test
    void aSlotStartedWithModuleAccessTakesOnlyRunsThatAskForAllOfIt() {
        SlotProfile exporting = TestProfiles.withStartAccess(
                new StartAccess(Set.of("java.base/java.util"), Set.of("java.sql/java.sql")));
        assertEquals("the pool's JVMs were started with --add-opens java.sql/java.sql=ALL-UNNAMED, which the run does not ask"
                + " for (a new JVM started without it gives no such access)", refusal(plain(), List.of(), exporting));
        assertEquals("the pool's JVMs were started with --add-exports java.base/java.util=ALL-UNNAMED, which the run does not"
                        + " ask for (a new JVM started without it gives no such access)",
                refusal(withAccess(List.of("java.sql/java.sql"), List.of()), List.of(), exporting));
        assertNull(refusal(withAccess(List.of("java.sql/java.sql"), List.of("java.base/java.util")), List.of(), exporting));
        assertNull(refusal(withAccess(List.of("java.sql/java.sql", "java.base/java.util"), List.of()), List.of(), exporting),
                "an open covers an export");
        assertEquals("the pool's JVMs were started with --add-opens java.sql/java.sql=ALL-UNNAMED, which the run does not ask"
                        + " for (a new JVM started without it gives no such access)",
                refusal(withAccess(List.of(), List.of("java.sql/java.sql", "java.base/java.util")), List.of(), exporting),
                "an export does not cover an open");
        assertNull(refusal(withAccess(List.of("java.base/java.lang"), List.of()), List.of(), SLOT),
                "a slot started with none takes runs that ask for some");
    }

    @Test
    void theStartAccessIsWhatTheOptionsGaveBeyondTheModulesDeclarations() {
        StartAccess here = StartAccess.ofThisJvm(); // surefire's argLine: --add-opens ...=ALL-UNNAMED, no --add-exports
        assertTrue(here.opens().containsAll(Set.of("java.base/java.lang", "java.base/jdk.internal.misc", "java.sql/java.sql")),
                here.toString());
        assertTrue(here.exports().isEmpty(), here.toString());
        assertTrue(!here.opens().contains("java.base/java.time") && !here.opens().contains("java.base/sun.net.dns"),
                "declared exports and packages no option names are not start access: " + here);
    }

    @Test
    void whatTheJdkFixesAtStartMustBeTheSlots() {
        String reason = refusal(run(Map.of(), Map.of(), List.of(), startup("", List.of(), "POSIX\nPOSIX\nANSI_X3.4-1968")),
                List.of(), SLOT);
        assertTrue(reason.startsWith("the run's C library locale (POSIX POSIX ANSI_X3.4-1968) is not the slot's"), reason);
        assertEquals("-Dfile.encoding=ISO-8859-1 is not the slot's encoding (UTF-8), which the JDK fixes at start-up",
                refusal(run(Map.of("file.encoding", "ISO-8859-1"), Map.of(), List.of(), StartupInputs.SLOT), List.of(), SLOT));
        assertEquals("-Xss64k is below what a slot takes (256k); only a new JVM knows its minimum",
                refusal(run(Map.of(), Map.of(), List.of(), startup("64k", List.of(), TestProfiles.LOCALE)), List.of(), SLOT));
    }

    @Test
    void limitsTheSlotCannotGiveARunNeedANewJvm() {
        assertEquals("the run's hard limit of nofile (8192) is not the slot's (4096)",
                refusal(run(Map.of(), Map.of(), List.of(), startup("", List.of("nofile:8192:8192"), TestProfiles.LOCALE)),
                        List.of(), SLOT));
        assertEquals("the run's limit of cpu (60) is not the slot's (unlimited), and the slot's own use counts against it",
                refusal(run(Map.of(), Map.of(), List.of(), startup("", List.of("cpu:60:unlimited"), TestProfiles.LOCALE)),
                        List.of(), SLOT));
        assertEquals(Map.of("core", -1L), RunLimits.changes(List.of("core:unlimited:unlimited", "nofile:10:4096"), SLOT.limits()));
    }

    @Test
    void aZoneOnlyTheCLibraryKnowsNeedsANewJvm() {
        assertNull(refusal(run(Map.of(), Map.of("TZ", ":posix/Asia/Tokyo"), List.of(), StartupInputs.SLOT), List.of(), SLOT));
        assertEquals("TZ=JST-9 is no time zone ID the JDK knows; only a new JVM derives the zone from the C library",
                refusal(run(Map.of(), Map.of("TZ", "JST-9"), List.of(), StartupInputs.SLOT), List.of(), SLOT));
        assertNull(RunZone.of(Map.of(), Map.of(), SLOT), "a run with the slot's TZ gets the slot's zone");
    }

    @Test
    void aProfileTravelsWhole() throws IOException {
        SlotProfile read = SlotProfile.readFrom(new DataInputStream(new ByteArrayInputStream(SLOT.encode())));
        assertEquals(SLOT, read);
        assertEquals("", SLOT.differences(read));
        assertEquals("heap 1 (the pool's: 268435456)", SLOT.differences(TestProfiles.withHeap(1)));
        SlotProfile exporting = TestProfiles.withStartAccess(new StartAccess(Set.of("java.base/sun.net.dns"), Set.of()));
        assertEquals(exporting, SlotProfile.readFrom(new DataInputStream(new ByteArrayInputStream(exporting.encode()))));
        assertEquals("module access from the start --add-exports java.base/sun.net.dns=ALL-UNNAMED (the pool's: none)",
                SLOT.differences(exporting));
        SlotProfile ipv4 = TestProfiles.withStartProperties(Map.of("java.net.preferIPv4Stack", "true"));
        assertEquals(ipv4, SlotProfile.readFrom(new DataInputStream(new ByteArrayInputStream(ipv4.encode()))));
        assertEquals("system properties read once {java.net.preferIPv4Stack=true} (the pool's: {})", SLOT.differences(ipv4));
    }

    @Test
    void aPropertyTheJdkReadsOnceMustBeGivenAsTheSlotWasStarted() {
        SlotProfile ipv4 = TestProfiles.withStartProperties(Map.of("java.net.preferIPv4Stack", "true"));
        RunSpec hadoopTask = run(Map.of("java.net.preferIPv4Stack", "true", "hadoop.metrics.log.level", "WARN"), Map.of(),
                List.of(), StartupInputs.SLOT);
        assertNull(refusal(hadoopTask, List.of(), ipv4));
        assertNull(refusal(run(Map.of("hadoop.metrics.log.level", "WARN"), Map.of(), List.of(), StartupInputs.SLOT),
                List.of(), SLOT), "a property the JDK reads at every use is the run's");
        assertEquals("-Djava.net.preferIPv4Stack=true is not what the pool's JVMs were started with (none),"
                + " and the JDK reads it once, at start-up or first use", refusal(hadoopTask, List.of(), SLOT));
        assertEquals("the pool's JVMs were started with -Djava.net.preferIPv4Stack=true, which the run does not give"
                + " (the JDK reads it once, at start-up or first use; a new JVM runs without it)", refusal(plain(), List.of(), ipv4));
        assertEquals("-Djava.net.preferIPv4Stack=false is not what the pool's JVMs were started with (true),"
                + " and the JDK reads it once, at start-up or first use",
                refusal(run(Map.of("java.net.preferIPv4Stack", "false"), Map.of(), List.of(), StartupInputs.SLOT), List.of(), ipv4));
        for (String name : List.of("java.util.concurrent.ForkJoinPool.common.parallelism", "sun.net.inetaddr.ttl",
                "networkaddress.cache.ttl", "java.system.class.loader", "java.security.manager", "jdk.net.hosts.file",
                "javax.net.ssl.trustStore", "jdk.tls.client.protocols", "java.nio.channels.spi.SelectorProvider",
                "jdk.serialFilter", "java.util.logging.config.file", "com.sun.management.jmxremote.port", "javax.net.debug",
                "java.security.debug", "sun.security.krb5.debug", "java.util.Arrays.useLegacyMergeSort", "http.keepAlive",
                "jdk.util.jar.enableMultiRelease", "jsse.enableSNIExtension", "sun.nio.ch.internalThreadPoolSize",
                "java.net.useSystemProxies", "sun.nio.fs.DefaultFileSystemProvider", "http.KeepAlive.queuedConnections")) {
            String refused = refusal(run(Map.of(name, "1"), Map.of(), List.of(), StartupInputs.SLOT), List.of(), SLOT);
            assertTrue(refused != null && refused.startsWith("-D" + name + "=1 is not"), name + ": " + refused);
        }
    }

    @Test
    void aLineSeparatorIsTheJdksUnlessTheRunGivesAnotherThanTheSlots() {
        SlotProfile unix = TestProfiles.withStartProperties(Map.of("line.separator", "\n"));
        assertNull(refusal(plain(), List.of(), unix), "left out: the JDK's own, as in a new JVM on the same system");
        assertNull(refusal(run(Map.of("line.separator", "\n"), Map.of(), List.of(), StartupInputs.SLOT), List.of(), unix));
        assertEquals("-Dline.separator=\\r\\n is not what the pool's JVMs were started with (\\n), and the JDK reads it once,"
                + " at start-up or first use",
                refusal(run(Map.of("line.separator", "\r\n"), Map.of(), List.of(), StartupInputs.SLOT), List.of(), unix));
    }
}
