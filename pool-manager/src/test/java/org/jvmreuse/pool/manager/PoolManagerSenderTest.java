package org.jvmreuse.pool.manager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.jvmreuse.pool.admission.TestProfiles;
import org.jvmreuse.pool.mpi.Tags;
import org.jvmreuse.pool.mpi.Wire;

/**
 * Every slot message is checked against the slot that may send it: a slot (task code in it can
 * make MPI calls) cannot start, end or free a run it does not hold, nor pose as starting again.
 * Forged messages are dropped and logged; the real ones still count.
 */
class PoolManagerSenderTest extends ManagerTestBase {
    @Test
    void aSlotCannotReportAnotherSlotsRunStartedOrDone() throws Exception {
        harness = ManagerHarness.start(2);
        ControlClient client = harness.run("app.Main", LONG_WAIT);
        long runId = harness.slot(0).nextLaunch("app.Main");
        harness.slot(1).started(runId);
        harness.slot(1).done(runId, 0);
        Thread.sleep(QUIET.toMillis());
        assertFalse(client.hasReply(), "a forged STARTED or DONE reached the client");
        assertTrue(harness.log().contains("dropping a forged MPI message with tag " + Tags.DONE + " from rank 2"),
                harness.log());
        harness.slot(0).started(runId);
        client.expect("started");
        harness.slot(0).done(runId, 7);
        assertEquals("7", client.expect("exit").get("code"));
    }

    @Test
    void aSlotCannotFreeItselfWhileItsRunGoesOn() throws Exception {
        harness = ManagerHarness.start(1);
        ControlClient first = harness.run("app.Main", LONG_WAIT);
        long runId = startOn(harness.slot(0), first, "app.Main");
        harness.slot(0).free(runId);
        ControlClient second = harness.run("app.Second", LONG_WAIT);
        assertEquals("queued", second.expect("queued").type());
        harness.slot(0).assertNothingFor(QUIET);
        harness.slot(0).done(runId, 0);
        harness.slot(0).free(runId);
        assertEquals("0", first.expect("exit").get("code"));
        harness.slot(0).nextLaunch("app.Second");
    }

    @Test
    void aReadySlotCannotSayHelloAgain() throws Exception {
        harness = ManagerHarness.start(1);
        harness.slot(0).send(Tags.HELLO, Wire.longAndBytes(0, 4242, TestProfiles.slot().encode()));
        Thread.sleep(QUIET.toMillis());
        assertTrue(harness.slotStatus(0).contains("pid 1001 free"), harness.slotStatus(0));
    }
}
