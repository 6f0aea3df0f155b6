package org.jvmreuse.pool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class PoolOptionsTest {
    @Test
    void fillsSocketAndLogTemplates() {
        PoolOptions options = PoolOptions.parse(new String[] {"--socket", "/s/%h/pool-%i.sock", "--warmup-runs", "0"});
        assertEquals(Path.of("/s/node7/pool-3.sock"), options.socketPath("node7", 3, true));
        assertEquals(Path.of("/s/node7/logs"), options.logDir(options.socketPath("node7", 3, true), "node7", 3));
        assertEquals(0, options.warmupRuns());
        assertEquals(Path.of("/tmp/jvmreuse-" + PoolOptions.currentUid() + "/pool-2.sock"),
                PoolOptions.parse(new String[0]).socketPath("h", 2, true));
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
    void refusesBadOptionsByName() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PoolOptions.parse(new String[] {"--bogus"}))
                .getMessage().startsWith("unknown option '--bogus'"));
        assertEquals("option --thread-stop-ms needs a whole number >= 1, got 'soon'", assertThrows(
                IllegalArgumentException.class, () -> PoolOptions.parse(new String[] {"--thread-stop-ms", "soon"})).getMessage());
        assertEquals("option --socket needs a value",
                assertThrows(IllegalArgumentException.class, () -> PoolOptions.parse(new String[] {"--socket"})).getMessage());
        assertEquals("--ranks-per-pool must be 0 or at least 2 (a manager and a slot)", assertThrows(
                IllegalArgumentException.class, () -> PoolOptions.parse(new String[] {"--ranks-per-pool", "1"})).getMessage());
        PoolOptions shared = PoolOptions.parse(new String[] {"--socket", "/s/pool.sock"});
        assertEquals("several pools run on host h and would share the socket /s/pool.sock; put %i or %n in --socket",
                assertThrows(IllegalArgumentException.class, () -> shared.socketPath("h", 1, true)).getMessage());
    }
}
