package org.jvmreuse.pool.manager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.jvmreuse.pool.mpi.Tags;
import org.jvmreuse.pool.mpi.Wire;
import org.jvmreuse.pool.protocol.Frame;

/**
 * A client whose start deadline passes sends {@code cancel} and waits for the answer: the run
 * is either never started (fallback: the client starts a new JVM) or started (the client goes on
 * with it), never both; before, the client closed and started a new JVM while the slot might
 * have started the run already (YarnChild asked for its task twice).
 */
class PoolManagerCancelTest extends ManagerTestBase {
    @Test
    void aQueuedRunFallsBackAtOnce() throws Exception {
        harness = ManagerHarness.start(1);
        ControlClient first = harness.run("First", LONG_WAIT);
        long firstId = startOn(harness.slot(0), first, "First");
        ControlClient late = harness.run("Late", LONG_WAIT);
        late.expect("queued");
        late.write(new Frame("cancel"));
        assertTrue(late.expect("fallback").get("reason").contains("start deadline"));
        harness.slot(0).done(firstId, 0);
        harness.slot(0).free(firstId);
        first.expect("exit");
        harness.slot(0).assertNothingFor(QUIET); // the cancelled run is launched nowhere
    }

    @Test
    void aLaunchedRunThatHasNotStartedIsCancelledInItsSlotAndFallsBack() throws Exception {
        harness = ManagerHarness.start(1);
        ControlClient client = harness.run("App", LONG_WAIT);
        long runId = harness.slot(0).nextLaunch("App");
        client.write(new Frame("cancel"));
        assertEquals(runId, harness.slot(0).next(Tags.CANCEL).runId());
        harness.slot(0).send(Tags.DONE, Wire.intFlagAndText(runId, 1, false, "its client's start deadline passed"));
        assertTrue(client.expect("fallback").get("reason").contains("start deadline"));
    }

    @Test
    void aRunThatStartedAsTheDeadlinePassedGoesOnAndIsNotCancelled() throws Exception {
        harness = ManagerHarness.start(1);
        ControlClient client = harness.run("App", LONG_WAIT);
        long runId = harness.slot(0).nextLaunch("App");
        harness.slot(0).started(runId);
        assertEquals("started", client.expect("started").type());
        // Sent as the manager's `started` was on its way (one sent earlier reaches the slot as
        // CANCEL, which a started run ignores: TaskRun.cancelUnlessStarted).
        client.write(new Frame("cancel"));
        harness.slot(0).assertNothingFor(QUIET);
        harness.slot(0).done(runId, 0);
        assertEquals("0", client.expect("exit").get("code"));
        assertEquals(ControlClient.CLOSED, client.next().type(), "nothing but the end after the exit");
    }
}
