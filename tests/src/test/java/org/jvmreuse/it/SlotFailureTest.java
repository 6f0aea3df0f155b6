package org.jvmreuse.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A slot that dies takes down neither the pool nor mpirun; its run ends with a message. */
class SlotFailureTest {
    @Test
    void killedSlotIsRetiredAndThePoolServesOn() throws Exception {
        try (Pool pool = Pool.start(2)) {
            Process client = pool.startProgram("Exiter", "sleep", "600000");
            pool.awaitStatus("busy 1", 15_000);
            Thread.sleep(200);
            String status = pool.status();
            long busyPid = busySlotPid(status);
            ProcessHandle.of(busyPid).orElseThrow().destroyForcibly();
            assertTrue(client.waitFor(30, TimeUnit.SECONDS), "the client was not told");
            String err = new String(client.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(137, client.exitValue(), err);
            assertTrue(err.contains("the pool slot running this program died"), err);
            pool.awaitStatus("retired 1", 10_000);
            assertTrue(pool.mpirunAlive(), "mpirun must survive a dead slot");
            for (int i = 0; i < 5; i++) {
                Pool.Result next = pool.program("StaticCounter");
                assertEquals("1\n", next.out(), next.toString());
                assertTrue(next.err().contains("running in slot"), next.err());
            }
        }
    }

    private static long busySlotPid(String status) {
        for (String line : List.of(status.split("\n"))) {
            if (line.startsWith("slot ") && line.contains(" busy busy=1")) {
                return Long.parseLong(line.replaceAll(".* pid (\\d+) .*", "$1"));
            }
        }
        throw new AssertionError("no busy slot in\n" + status);
    }
}
