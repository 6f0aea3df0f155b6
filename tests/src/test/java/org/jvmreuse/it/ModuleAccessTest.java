package org.jvmreuse.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A run gets the module access a new JVM with its own options gives it, no more: what the pool
 * opens for its own code does not reach a run's; a run's --add-opens hold for that run and are
 * taken back, also what such a run opened by itself; an --add-exports of an internal package,
 * which the VM keeps, retires the slot and its spare takes its place; the pool's own module (a
 * named module that exports nothing) gives a run none of its members, and a run that opens it by
 * itself retires its slot too. On Java 17 and the newest JDK installed. And a pool started with
 * an --add-exports serves only the runs that ask for it.
 */
class ModuleAccessTest {
    private static final String OPEN_FIELD = "org.jvmreuse.it.programs.OpenField";

    static List<String> jdks() throws IOException {
        return Jdks.all();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void aRunGetsTheAccessItsOwnOptionsGiveAndNoMore(String java) throws Exception {
        try (Pool pool = Pool.start(1, java, "", Map.of("JVMREUSE_SPARES", "2"))) {
            Pool.Result plain = Pool.exec(List.of(java, "-cp", Pool.PROGRAMS, OPEN_FIELD, "java.lang.String", "value"),
                    Map.of(), null, 60);
            Pool.Result slot = pool.run("-cp", Pool.PROGRAMS, OPEN_FIELD, "java.lang.String", "value");
            assertEquals(1, plain.code(), plain.toString());
            assertEquals(plain.code(), slot.code(), slot.toString());
            String refused = "module java.base does not \"opens java.lang\" to unnamed module";
            assertTrue(plain.err().contains(refused) && slot.err().contains(refused), slot.err());
            assertTrue(slot.err().contains("running in slot 0"), slot.err());

            Pool.Result opened = pool.run("--add-opens", "java.base/java.lang=ALL-UNNAMED", "-cp", Pool.PROGRAMS,
                    "org.jvmreuse.it.programs.WidenAccess", "java.base", "java.util.zip");
            assertEquals(0, opened.code(), opened.toString());
            assertEquals("opened java.base/java.util.zip to all unnamed modules\n", opened.out());
            assertTrue(opened.err().contains("running in slot 0"), opened.err());
            for (String[] field : List.of(new String[] {"java.lang.String", "value"}, new String[] {"java.util.zip.CRC32", "crc"})) {
                Pool.Result after = pool.run("-cp", Pool.PROGRAMS, OPEN_FIELD, field[0], field[1]);
                assertEquals(1, after.code(), "taken back after the run: " + after);
                assertTrue(after.err().contains("InaccessibleObjectException") && after.err().contains("running in slot 0"),
                        after.err());
            }
            assertTrue(pool.status().contains("replacements: 0 made"), pool.status());

            Pool.Result exported = pool.run("--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED", "-cp",
                    Pool.PROGRAMS, "org.jvmreuse.it.programs.Echo", "0");
            assertEquals(0, exported.code(), exported.toString());
            assertTrue(exported.err().contains("running in slot 0"), exported.err());
            pool.awaitStatus("replacements: 1 made", 15_000);
            assertTrue(pool.status().contains("java.base/jdk.internal.misc (exported to unnamed modules inside the VM)"),
                    pool.status());

            // The pool's own module: the classes a run is handed are names only, and a run that
            // opens that module by itself (it was given java.lang) retires its slot.
            pool.awaitStatus("free 1,", 60_000);
            assertPoolUnusable(pool);
            Pool.Result widened = pool.run("--add-opens", "java.base/java.lang=ALL-UNNAMED", "-cp", Pool.PROGRAMS,
                    "org.jvmreuse.it.programs.WidenAccess", "handed", "org.jvmreuse.pool.slot");
            assertEquals(0, widened.code(), widened.toString());
            assertEquals("opened org.jvmreuse.pool/org.jvmreuse.pool.slot to all unnamed modules\n", widened.out());
            pool.awaitStatus("replacements: 2 made", 15_000);
            assertTrue(pool.status().contains("org.jvmreuse.pool/org.jvmreuse.pool.slot (exported to unnamed modules inside the VM)"),
                    pool.status());
            pool.awaitStatus("free 1,", 60_000);
            assertPoolUnusable(pool);
        }
    }

    /**
     * A pool started with an --add-exports (as Hadoop 3.4 clusters start theirs, in 3.4's form)
     * gives every run that access: it serves the runs that ask for it, in the same slot, and sends
     * a run that does not to a new JVM, which refuses it as {@code java} without the option does.
     */
    @Test
    void aPoolStartedWithAnExportServesOnlyTheRunsThatAskForIt() throws Exception {
        String option = "--add-exports=java.base/sun.net.util=ALL-UNNAMED";
        try (Pool pool = Pool.start(1, Jdks.DEFAULT, option)) {
            String program = "org.jvmreuse.it.programs.UseExported";
            for (int i = 0; i < 2; i++) {
                Pool.Result asked = pool.run(option, "-cp", Pool.PROGRAMS, program);
                assertEquals(0, asked.code(), asked.toString());
                assertEquals("sun.net.util used: true\n", asked.out());
                assertTrue(asked.err().contains("running in slot 0"), asked.err());
            }
            Pool.Result plain = Pool.exec(List.of(Jdks.DEFAULT, "-cp", Pool.PROGRAMS, program), Map.of(), null, 60);
            Pool.Result notAsked = pool.run("-cp", Pool.PROGRAMS, program);
            assertEquals(1, plain.code(), plain.toString());
            assertEquals(plain.code(), notAsked.code(), notAsked.toString());
            assertTrue(plain.err().contains("IllegalAccessException") && notAsked.err().contains("IllegalAccessException"),
                    notAsked.err());
            assertTrue(notAsked.err().contains("the pool's JVMs were started with --add-exports java.base/sun.net.util=ALL-UNNAMED,"
                    + " which the run does not ask for") && notAsked.err().contains("starting a new JVM"), notAsked.err());
            assertTrue(pool.status().contains("replacements: 0 made"), "the exported slot serves on: " + pool.status());
        }
    }

    private static void assertPoolUnusable(Pool pool) throws Exception {
        Pool.Result reach = pool.run("-cp", Pool.PROGRAMS, "org.jvmreuse.it.programs.PoolReach",
                "org.jvmreuse.pool.common.PoolThreads", "org.jvmreuse.pool.slot.SlotRuntime");
        assertEquals("pool members usable: 0\n", reach.out(), reach.toString());
        assertTrue(reach.err().contains("running in slot 0") && reach.err().contains("in module org.jvmreuse.pool"),
                reach.err());
    }
}
