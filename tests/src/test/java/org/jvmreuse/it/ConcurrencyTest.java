package org.jvmreuse.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ConcurrencyTest {
    @Test
    void moreRequestsThanSlotsAllCompleteInArrivalOrder() throws Exception {
        int requests = 10;
        try (Pool pool = Pool.start(2)) {
            List<Process> clients = new ArrayList<>();
            for (int i = 0; i < requests; i++) {
                clients.add(pool.startProgram("Ordered", Integer.toString(i), "1500"));
                // A known arrival order: wider than a client's start-up on a loaded machine,
                // narrower than the service time, so that a queue forms.
                Thread.sleep(150);
            }
            long[] startedAt = new long[requests];
            for (int i = 0; i < requests; i++) {
                Process client = clients.get(i);
                assertTrue(client.waitFor(120, TimeUnit.SECONDS), "request " + i + " never finished");
                String out = new String(client.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                String err = new String(client.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
                assertEquals(0, client.exitValue(), "request " + i + ": " + out + err);
                assertTrue(err.contains("running in slot"), "request " + i + " fell back: " + err);
                String[] fields = out.trim().split(" ");
                assertEquals(Integer.toString(i), fields[0], out);
                startedAt[i] = Long.parseLong(fields[1]);
            }
            for (int i = 1; i < requests; i++) {
                assertTrue(startedAt[i - 1] < startedAt[i], "request " + i + " started before request " + (i - 1));
            }
            String status = pool.status();
            assertTrue(status.contains("runs: completed " + requests + ","), status);
            assertTrue(status.contains("queued 0"), status);
        }
    }
}
