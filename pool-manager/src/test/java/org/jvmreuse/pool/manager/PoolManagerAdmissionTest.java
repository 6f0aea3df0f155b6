package org.jvmreuse.pool.manager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.jvmreuse.pool.admission.TestProfiles;

/**
 * The manager decides "slot or new JVM" once, before it picks a slot, against what its slots
 * said at HELLO they were started with: a run no slot can give what a new JVM would never reaches one.
 */
class PoolManagerAdmissionTest extends ManagerTestBase {
    @Test
    void aRunAskingForMoreHeapThanTheSlotsHaveGoesToANewJvmWithoutASlotHearingOfIt() throws Exception {
        harness = ManagerHarness.start(1);
        String reason = harness.request(ControlClient.runRequest("app.Big", LONG_WAIT).add("ignored_opt", "-Xmx1g"))
                .expect("fallback").get("reason");
        assertEquals("its heap -Xmx1g is above the slot heap of 256 MB", reason);
        harness.slot(0).assertNothingFor(QUIET);
        assertTrue(harness.log().contains("goes to a new JVM: " + reason), harness.log());

        ControlClient fits = harness.request(ControlClient.runRequest("app.Small", LONG_WAIT).add("ignored_opt", "-Xmx1g")
                .add("ignored_opt", "-Xmx200m"));
        long runId = startOn(harness.slot(0), fits, "app.Small");
        harness.slot(0).done(runId, 0);
        assertEquals("0", fits.expect("exit").get("code"));
    }

    @Test
    void aRunOpeningAPackageTheSlotsLackGoesToANewJvm() throws Exception {
        harness = ManagerHarness.start(1);
        String reason = harness.request(ControlClient.runRequest("app.Opens", LONG_WAIT).add("add_opens", "java.base/no.such"))
                .expect("fallback").get("reason");
        assertTrue(reason.startsWith("module java.base has no package no.such"), reason);
        harness.slot(0).assertNothingFor(QUIET);
        assertTrue(harness.status().contains("runs: completed 0, running 0, queued 0, fallbacks 1"), harness.status()::toString);
    }

    @Test
    void aSlotStartedOtherwiseThanThePoolsFirstLeavesService() throws Exception {
        harness = ManagerHarness.warmingUp(2, 1);
        harness.slot(1).hello(TestProfiles.withHeap(TestProfiles.HEAP * 2));
        harness.awaitStatus("the slot that differs retired", "retired");
        String status = harness.slotStatus(1);
        assertTrue(status.contains("started otherwise than the pool's first slot: heap 536870912 (the pool's: 268435456)"),
                status);
        ControlClient client = harness.run("app.Main", LONG_WAIT);
        long runId = startOn(harness.slot(0), client, "app.Main");
        harness.slot(0).done(runId, 0);
        assertEquals("0", client.expect("exit").get("code"));
    }
}
