package org.jvmreuse.pool.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.jvmreuse.pool.os.CurrentUser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PoolOptionsTest {
    @TempDir
    Path tmp;

    @Test
    void fillsSocketAndLogTemplates() {
        PoolOptions options = PoolOptions.parse(new String[] {"--socket", tmp + "/%h/pool-%i.sock", "--warmup-runs", "0"});
        assertEquals(tmp.resolve("node7/pool-3.sock"), options.socketPath("node7", 3, true));
        assertEquals(tmp.resolve("node7/logs"), options.logDir(options.socketPath("node7", 3, true), "node7", 3));
        assertEquals(0, options.warmupRuns());
        assertEquals(256L << 20, options.rssMarginBytes(), "the default margin of resident memory");
        assertEquals(64L << 20, PoolOptions.parse(new String[] {"--rss-margin-mb", "64"}).rssMarginBytes());
        assertEquals(Path.of("/tmp/jvmreuse-" + CurrentUser.uid() + "/pool-2.sock"),
                PoolOptions.parse(new String[0]).socketPath("h", 2, true));
    }

    /** A library warm-up's runs take the slot's run path: the built-in program runs only when asked for too. */
    @Test
    void theBuiltInWarmUpRunsUnlessALibraryWarmsUp() {
        assertEquals(20, PoolOptions.parse(new String[0]).warmupRuns());
        String[] library = {"--warmup-main", "a.Warm", "--warmup-cp", "/x.jar"};
        assertEquals(0, PoolOptions.parse(library).warmupRuns());
        String[] both = {"--warmup-main", "a.Warm", "--warmup-cp", "/x.jar", "--warmup-runs", "5"};
        assertEquals(5, PoolOptions.parse(both).warmupRuns());
        assertEquals("a.Warm", PoolOptions.parse(both).libraryWarmup().mainClass());
    }

    /** The default logs live in the socket's directory, so it is made private, or refused, before any log is written. */
    @Test
    void theDefaultLogDirectoryIsCheckedBeforeUse() throws Exception {
        PoolOptions options = PoolOptions.parse(new String[] {"--socket", tmp + "/%h/pool.sock"});
        Path victim = Files.createDirectory(tmp.resolve("victim"));
        Files.setPosixFilePermissions(victim, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.createSymbolicLink(tmp.resolve("linked"), victim);
        Path theirs = Files.createDirectory(tmp.resolve("theirs"));
        Files.setAttribute(theirs, "unix:uid", 65534);
        Files.setPosixFilePermissions(theirs, PosixFilePermissions.fromString("rwx------"));

        assertTrue(assertThrows(IllegalArgumentException.class, () -> options.logDir(options.socketPath("linked", 0, false),
                "linked", 0)).getMessage().contains("is a symbolic link"));
        assertEquals("rwxr-xr-x", PosixFilePermissions.toString(Files.getPosixFilePermissions(victim)), "victim chmodded");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> options.logDir(options.socketPath("theirs", 0, false),
                "theirs", 0)).getMessage().contains("belongs to uid 65534"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> options.logDir(options.socketPath("victim", 0, false),
                "victim", 0)).getMessage().contains("has mode rwxr-xr-x"));

        options.logDir(options.socketPath("fresh", 0, false), "fresh", 0);
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(tmp.resolve("fresh"))));
    }

    @Test
    void serviceOptionsGetEachPoolsPlaceholders() {
        PoolOptions options = PoolOptions.parse(new String[] {"--socket", "/c/pool%n/pool.sock", "--service", "a.B",
            "--service-cp", "/x.jar:/lib/*", "--service-opt", "conf-dir=/c/nm%n/conf", "--service-opt", "at=%h-%i=%n"});
        assertEquals(Path.of("/c/pool1/pool.sock"), options.socketPath("h", 0, true));
        assertEquals("a.B", options.service().className());
        assertEquals(java.util.List.of("/x.jar", "/lib/*"), options.service().classPath());
        assertEquals(java.util.Map.of("conf-dir", "/c/nm2/conf", "at", "node-1=2"), options.service().optionsFor("node", 1));
        assertEquals(null, PoolOptions.parse(new String[0]).service());
        assertEquals("--service-opt needs KEY=VALUE, got '=x'", assertThrows(IllegalArgumentException.class,
                () -> PoolOptions.parse(new String[] {"--service", "a.B", "--service-opt", "=x"})).getMessage());
        assertEquals("--service-cp and --service-opt need --service", assertThrows(IllegalArgumentException.class,
                () -> PoolOptions.parse(new String[] {"--service-cp", "/x.jar"})).getMessage());
    }

    @Test
    void applicationMastersGetHalfTheSlotsByDefaultAndNeverMoreThanThePoolHas() {
        PoolOptions defaults = PoolOptions.parse(new String[0]);
        assertEquals(null, defaults.amSlots());
        assertEquals(java.util.List.of(0, 1, 2, 2, 3, 4), java.util.stream.IntStream.of(1, 2, 3, 4, 5, 8)
                .mapToObj(defaults::amSlotCap).toList(), "half rounded up, and one slot always left to tasks");
        assertEquals(0, PoolOptions.parse(new String[] {"--am-slots", "0"}).amSlotCap(4));
        assertEquals(4, PoolOptions.parse(new String[] {"--am-slots", "4"}).amSlotCap(4));
        assertEquals("--am-slots 5 is more than the pool's 4 slots", assertThrows(IllegalArgumentException.class,
                () -> PoolOptions.parse(new String[] {"--am-slots", "5"}).amSlotCap(4)).getMessage());
        assertEquals("option --am-slots needs a whole number >= 0, got '-1'", assertThrows(IllegalArgumentException.class,
                () -> PoolOptions.parse(new String[] {"--am-slots", "-1"})).getMessage());
        assertEquals("option --am-slots needs a whole number >= 0, got 'half'", assertThrows(IllegalArgumentException.class,
                () -> PoolOptions.parse(new String[] {"--am-slots", "half"})).getMessage());
        assertEquals("option --am-slots needs a value", assertThrows(IllegalArgumentException.class,
                () -> PoolOptions.parse(new String[] {"--am-slots"})).getMessage());
    }

    @Test
    void refusesBadOptionsByName() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PoolOptions.parse(new String[] {"--bogus"}))
                .getMessage().startsWith("unknown option '--bogus'"));
        assertEquals("option --thread-stop-ms needs a whole number >= 1, got 'soon'", assertThrows(
                IllegalArgumentException.class, () -> PoolOptions.parse(new String[] {"--thread-stop-ms", "soon"})).getMessage());
        assertEquals("option --socket needs a value",
                assertThrows(IllegalArgumentException.class, () -> PoolOptions.parse(new String[] {"--socket"})).getMessage());
        assertEquals("--ranks-per-pool must be 0 or at least 2 (a manager and a slot)", assertThrows(
                IllegalArgumentException.class, () -> PoolOptions.parse(new String[] {"--ranks-per-pool", "1"})).getMessage());
        assertEquals("--ranks-per-pool 3 leaves no slot beside the manager and 2 spares: it must be at least 4",
                assertThrows(IllegalArgumentException.class,
                        () -> PoolOptions.parse(new String[] {"--ranks-per-pool", "3", "--spares", "2"})).getMessage());
        assertEquals("option --spares needs a whole number >= 0, got '-1'", assertThrows(IllegalArgumentException.class,
                () -> PoolOptions.parse(new String[] {"--spares", "-1"})).getMessage());
        PoolOptions shared = PoolOptions.parse(new String[] {"--socket", "/s/pool.sock"});
        assertEquals("several pools run on host h and would share the socket /s/pool.sock; put %i or %n in --socket",
                assertThrows(IllegalArgumentException.class, () -> shared.socketPath("h", 1, true)).getMessage());
    }
}
