package org.jvmreuse.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.codehaus.jackson.JsonNode;
import org.codehaus.jackson.map.ObjectMapper;
import org.junit.jupiter.api.Test;

/**
 * Spare ranks take the place of slots that retire or die: a pool whose slots all leave keeps
 * serving in slots, its slot count as configured, and falls back to new JVMs once no spare is left.
 */
class SpareSlotsTest {
    private static final Pattern SERVED_BY = Pattern.compile("running in slot \\d+ \\(rank (\\d+),");

    @Test
    void aPoolWhoseSlotsAllRetireKeepsServingFromReplacements() throws Exception {
        // Ranks: 0 the manager, 1 the slot, 2 and 3 the spares. A short warm-up: spares warm up when promoted.
        try (Pool pool = Pool.start(1, Jdks.DEFAULT, "", Map.of("JVMREUSE_SPARES", "2", "JVMREUSE_WARMUP_RUNS", "20"))) {
            String status = pool.status();
            assertTrue(status.contains("slots: 1 (free 1, busy 0, starting 0, retired 0)"), status);
            assertTrue(status.contains("replacements: 0 made, 2 spares left (ranks 2,3)"), status);
            JsonNode json = pool.statusJson();
            assertEquals(List.of(1, 1, 0, 0, 0, 2), ints(json, "slots_total", "free", "busy", "starting", "retired",
                    "spares_left"), json.toString());
            assertEquals("serving", json.get("state").getTextValue());
            assertEquals(pool.socket.toString(), json.get("socket").getTextValue());
            assertEquals("[2,3]", json.get("spares").toString());
            JsonNode slot = json.get("slots").get(0);
            assertEquals(1, slot.get("rank").getIntValue(), json.toString());
            assertEquals("free", slot.get("state").getTextValue());
            assertEquals(slotPid(status, 1), slot.get("pid").getLongValue());
            assertTrue(ProcessHandle.of(slot.get("pid").getLongValue()).isPresent(), "the slot's JVM has that pid");

            // The slot retires (its run left a thread it cannot stop): the first spare takes its place.
            Pool.Result stuck = pool.program("Unstoppable");
            assertEquals(0, stuck.code(), stuck.toString());
            assertEquals("left a thread that will not stop\n", stuck.out(), stuck.toString());
            assertEquals(1, servedBy(stuck));
            pool.awaitStatus("replacements: 1 made, 1 spare left (rank 3)", 15_000);
            assertEquals(2, servedBy(counterRun(pool)), "the next run waits for the replacement and runs there");
            assertTrue(pool.status().contains("slot 0: rank 2 "), pool.status());

            // The replacement dies (SIGKILL): the second spare takes the slot's place.
            ProcessHandle.of(slotPid(pool.status(), 2)).orElseThrow().destroyForcibly();
            pool.awaitStatus("replacements: 2 made, 0 spares left", 15_000);
            for (int i = 0; i < 2; i++) {
                assertEquals(3, servedBy(counterRun(pool)));
            }
            // The count stays (the client has its exit before the slot reports itself free).
            pool.awaitStatus("slots: 1 (free 1, busy 0, starting 0, retired 0)", 15_000);
            status = pool.status();
            assertTrue(status.contains("slot 0: rank 3 ") && status.contains("replacement 2, in place of rank 2, which retired: "
                    + "its process ended unexpectedly"), status);
            assertTrue(pool.mpirunAlive(), "mpirun lives on");

            // No spare left: the slot is not replaced, and runs go to new JVMs, as without a pool.
            ProcessHandle.of(slotPid(status, 3)).orElseThrow().destroyForcibly();
            pool.awaitStatus("slots: 1 (free 0, busy 0, starting 0, retired 1)", 15_000);
            assertTrue(pool.status().contains("1 slot retired with no spare to replace it: serving with 0 of 1"), pool.status());
            String text = pool.statusJsonText();
            json = new ObjectMapper().readTree(text);
            assertEquals(List.of(1, 0, 0, 0, 1, 2, 0), ints(json, "slots_total", "free", "busy", "starting", "retired",
                    "replacements", "spares_left"), text);
            slot = json.get("slots").get(0);
            assertEquals(3, slot.get("rank").getIntValue(), text);
            assertEquals("retired", slot.get("state").getTextValue(), text);
            assertEquals("its process ended unexpectedly", slot.get("retired_reason").getTextValue(), text);
            assertEquals(2, slot.get("replacements").getIntValue(), text);
            assertTrue(slot.get("replaced").getTextValue().startsWith("in place of rank 2, which retired: "), text);
            // The scripts' reader sees the same.
            assertEquals(List.of("0\n", "1\n", "serving\n", pool.socket + "\n"),
                    StatusFieldTest.read(text, List.of("free", "retired", "state", "socket")), text);
            Pool.Result fallback = pool.program("StaticCounter");
            assertEquals("1\n", fallback.out(), fallback.toString());
            assertFalse(fallback.err().contains("running in slot"), fallback.toString());
            assertTrue(fallback.err().contains("no usable slot"), fallback.toString());
        }
    }

    private static List<Integer> ints(JsonNode json, String... keys) {
        return Arrays.stream(keys).map(k -> json.get(k).getIntValue()).toList();
    }

    /** A run of a fresh program, which must print what a new JVM would. */
    private static Pool.Result counterRun(Pool pool) throws Exception {
        Pool.Result run = pool.program("StaticCounter");
        assertEquals("1\n", run.out(), run.toString());
        return run;
    }

    /** The rank the client's -v line names. */
    private static int servedBy(Pool.Result result) {
        Matcher m = SERVED_BY.matcher(result.err());
        assertTrue(m.find(), "not run in a slot: " + result);
        return Integer.parseInt(m.group(1));
    }

    /** The pid of the slot that rank {@code rank} serves. */
    private static long slotPid(String status, int rank) {
        Matcher m = Pattern.compile("(?m)^slot \\d+: rank " + rank + " pid (\\d+) ").matcher(status);
        assertTrue(m.find(), "rank " + rank + " serves no slot in\n" + status);
        return Long.parseLong(m.group(1));
    }
}
