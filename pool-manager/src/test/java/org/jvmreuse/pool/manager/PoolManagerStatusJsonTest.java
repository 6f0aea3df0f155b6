package org.jvmreuse.pool.manager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.jvmreuse.pool.protocol.Frame;

/** {@code status format=json}: the state of the pool as one line of JSON with a fixed layout. */
class PoolManagerStatusJsonTest extends ManagerTestBase {
    @Test
    void theJsonStatusHasTheCountsFirstThenTheSlotsWithWhyOneRetired() throws Exception {
        harness = ManagerHarness.start(2);
        harness.slot(1).retire("a \"stuck\" thread in C:\\tmp\nthen more");
        harness.awaitStatus("slot 1 retired", "retired 1)");
        ControlClient running = harness.run("Main", LONG_WAIT);
        startOn(harness.slot(0), running, "Main");

        String json = json();
        assertTrue(json.startsWith("{\"pool\":0,\"slots_total\":2,\"free\":0,\"busy\":1,\"starting\":0,\"retired\":1,"
                + "\"replacements\":0,\"spares_left\":0,\"runs_completed\":0,\"running\":1,\"queued\":0,\"fallbacks\":0,"
                + "\"state\":\"serving\",\"host\":\"node0\",\"socket\":" + Json.quote(harness.socket().toString()) + ",\"mpi\":"), json);
        assertTrue(json.contains(",\"spares\":[],\"latency\":{\"runs\":1,\"median_ms\":"), json);
        assertTrue(json.contains("{\"slot\":1,\"rank\":2,\"pid\":"), json);
        assertTrue(json.contains("\"state\":\"retired\",\"runs\":0,\"reuse_hits\":0,\"jdk\":\"17.0.99-test\",\"retired_reason\":"
                + "\"a \\\"stuck\\\" thread in C:\\\\tmp\\nthen more\""), json);
        assertTrue(json.endsWith("}]}") && !json.contains("\n"), json);
    }

    @Test
    void anUnknownStatusFormatIsRefused() throws Exception {
        harness = ManagerHarness.start(1);
        String message = harness.request(new Frame("status").add("format", "xml")).expect("error").get("message");
        assertTrue(message.contains("unknown status format 'xml'"), message);
        assertEquals(1, harness.status().stream().filter(l -> l.startsWith("slots: 1 ")).count(), "the text form is unchanged");
    }

    private String json() throws Exception {
        return harness.request(new Frame("status").add("format", "json")).expect("status").get("json");
    }
}
