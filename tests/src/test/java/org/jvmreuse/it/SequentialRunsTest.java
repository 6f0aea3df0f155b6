package org.jvmreuse.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SequentialRunsTest {
    @Test
    void twoHundredRunsAllGiveTheirOwnOutputAndExitCode() throws Exception {
        try (Pool pool = Pool.start(2)) {
            for (int i = 1; i <= 200; i++) {
                Pool.Result result = pool.program("Echo", Integer.toString(i));
                assertEquals(i % 7, result.code(), "exit code of run " + i + ": " + result);
                assertEquals("echo " + i + "\n", result.out(), "stdout of run " + i);
                assertTrue(result.err().contains("err " + i + "\n"), "stderr of run " + i + ": " + result.err());
                assertTrue(result.err().contains("jvmreuse: running in slot"), "run " + i + " did not use the pool: " + result.err());
            }
            String status = pool.status();
            assertTrue(status.contains("runs: completed 200,"), status);
            assertTrue(status.contains("fallbacks 0"), status);
        }
    }
}
