package org.jvmreuse.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class ConcurrencyTest {
    private static final Pattern RUNS = Pattern.compile("runs: completed (\\d+), running (\\d+), queued (\\d+)");

    @Test
    void moreRequestsThanSlotsAllCompleteInArrivalOrder() throws Exception {
        int requests = 10;
        try (Pool pool = Pool.start(2)) {
            List<Process> clients = new ArrayList<>();
            for (int i = 0; i < requests; i++) {
                clients.add(pool.startProgram("Ordered", Integer.toString(i), "1500"));
                // A known arrival order: the next client starts once the pool has this one (a
                // client's start-up on a loaded machine took longer than a fixed pause), and
                // 150 ms later, so that the runs' starts, spaced as their arrivals, stay apart
                // by more than a slot's jitter; narrower than the service time, so that a queue forms.
                awaitRequests(pool, i + 1);
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

    /** Until the pool has had {@code count} requests: completed, running and queued ones. */
    private static void awaitRequests(Pool pool, int count) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            String status = pool.status();
            Matcher m = RUNS.matcher(status);
            assertTrue(m.find(), status);
            if (Integer.parseInt(m.group(1)) + Integer.parseInt(m.group(2)) + Integer.parseInt(m.group(3)) >= count) {
                return;
            }
            assertTrue(System.nanoTime() < deadline, "the pool never had request " + (count - 1) + ": " + status);
            Thread.sleep(20);
        }
    }
}
