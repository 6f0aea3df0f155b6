package org.jvmreuse.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Exits end the run, never the slot: on the build's JDK 17 (which still has a SecurityManager)
 * and on the newest installed JDK (which has none).
 */
class ExitTrapTest {
    static List<String> jdks() throws Exception {
        List<String> jdks = Jdks.all();
        assertTrue(Jdks.major(jdks.get(0)) >= 17, "the build JDK must be 17+: " + jdks);
        return jdks;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void exitsHaltsAndUncaughtExceptionsEndOnlyTheRun(String java) throws Exception {
        try (Pool pool = Pool.start(1, java)) {
            assertTrue(pool.status().contains("Java " + Jdks.major(java)), pool.status());

            Pool.Result exit = pool.program("Exiter", "exit", "3");
            assertEquals(3, exit.code(), exit.toString());
            assertEquals("started exit\nhook ran\n", exit.out(), "exit runs shutdown hooks, nothing after exit");

            Pool.Result halt = pool.program("Exiter", "halt", "4");
            assertEquals(4, halt.code(), halt.toString());
            assertEquals("started halt\n", halt.out(), "halt skips shutdown hooks");

            Pool.Result fromThread = pool.program("Exiter", "thread-exit", "5");
            assertEquals(5, fromThread.code(), fromThread.toString());
            assertFalse(fromThread.out().contains("not reached"), fromThread.out());

            Pool.Result thrown = pool.program("Exiter", "throw");
            assertEquals(1, thrown.code(), thrown.toString());
            String trace = thrown.programErr();
            assertTrue(trace.contains("Exception in thread \"main\" java.lang.IllegalStateException: thrown by the program"),
                    thrown.err());
            assertTrue(trace.contains("\tat org.jvmreuse.it.programs.Exiter.main(Exiter.java:"), thrown.err());
            assertFalse(trace.contains("org.jvmreuse.pool"), "no pool frames in the trace: " + thrown.err());

            Pool.Result waits = pool.program("Exiter", "non-daemon");
            assertEquals(0, waits.code(), waits.toString());
            assertEquals("started non-daemon\nmain returned\nnon-daemon thread finished\nhook ran\n", waits.out(),
                    "like java, the run waits for non-daemon threads, then runs hooks");

            for (int i = 0; i < 3; i++) {
                Pool.Result after = pool.program("Exiter", "return");
                assertEquals(0, after.code(), after.toString());
                assertTrue(after.err().contains("running in slot 0"), "the slot survived: " + after.err());
            }
            String status = pool.status();
            assertTrue(status.contains("retired 0"), status);
            assertTrue(status.contains("fallbacks 0"), status);
        }
    }
}
