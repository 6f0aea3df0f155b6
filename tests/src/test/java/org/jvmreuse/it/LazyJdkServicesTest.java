package org.jvmreuse.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * JDK services that start their threads on first use (CompletableFuture's delay scheduler, the
 * default AsynchronousChannelGroup) work in every run of a slot, not only in the first run that
 * used them, whose clean-up must not stop their threads: on the build's JDK and the newest one.
 */
class LazyJdkServicesTest {
    static List<String> jdks() throws Exception {
        return Jdks.all();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void lazilyStartedJdkServicesServeEveryRun(String java) throws Exception {
        Pool.Result fresh = Pool.exec(List.of(java, "-cp", Pool.PROGRAMS, "org.jvmreuse.it.programs.LazyJdkServices"),
                Map.of(), null, 60);
        assertEquals("orTimeout=fired\ndelayedExecutor=ran\nchannelGroup=hello\n", fresh.out(), fresh.toString());
        try (Pool pool = Pool.start(1, java)) {
            for (int i = 1; i <= 3; i++) {
                Pool.Result run = pool.program("LazyJdkServices");
                assertEquals(0, run.code(), "run " + i + ": " + run);
                assertEquals(fresh.out(), run.out(), "run " + i + ": " + run);
                assertTrue(run.err().contains("running in slot 0"), "run " + i + ": " + run.err());
            }
            assertTrue(pool.status().contains("retired 0"), pool.status());
        }
    }
}
