package org.jvmreuse.pool.manager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jvmreuse.pool.mpi.Tags;
import org.jvmreuse.pool.protocol.Frame;
import org.junit.jupiter.api.Test;

/** Only the signals the protocol forwards reach a run: no other number can forge its exit status. */
class ClientSessionSignalTest extends ManagerTestBase {
    @Test
    void aQueuedRunIgnoresSignalNumbersThatWouldForgeItsStatus() throws Exception {
        harness = ManagerHarness.start(1);
        ControlClient busy = harness.run("Busy", LONG_WAIT);
        startOn(harness.slot(0), busy, "Busy");
        ControlClient queued = harness.run("Queued", LONG_WAIT);
        queued.expect("queued");
        for (String forged : new String[] {"-128", "0", "128", "2147483647", "x"}) {
            queued.write(new Frame("signal").add("sig", forged)); // 128 + -128 would be exit 0
        }
        queued.write(new Frame("signal").add("sig", 15));
        assertEquals("143", queued.expect("exit").get("code"));
        assertTrue(harness.log().contains("ignoring a signal frame with sig=-128"), harness.log());
    }

    @Test
    void aRunningRunGetsOnlyForwardedSignals() throws Exception {
        harness = ManagerHarness.start(1);
        ScriptedSlot slot = harness.slot(0);
        ControlClient client = harness.run("Main", LONG_WAIT);
        long runId = startOn(slot, client, "Main");
        client.write(new Frame("signal").add("sig", -137));
        client.write(new Frame("signal").add("sig", 2));
        ScriptedSlot.Received signal = slot.next(Tags.SIGNAL);
        assertEquals(runId, signal.runId());
        assertEquals(2, signal.signal(), "the first signal to reach the slot");
    }
}
