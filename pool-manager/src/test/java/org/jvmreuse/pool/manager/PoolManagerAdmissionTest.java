package org.jvmreuse.pool.manager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.jvmreuse.pool.admission.TestProfiles;
import org.jvmreuse.pool.protocol.Frame;

/**
 * The manager decides "slot or new JVM" once, before it picks a slot, against what its slots
 * said at HELLO they were started with: a run no slot can give what a new JVM would never reaches one.
 */
class PoolManagerAdmissionTest extends ManagerTestBase {
    @Test
    void aRunAskingForMoreHeapThanTheSlotsHaveGoesToANewJvmWithoutASlotHearingOfIt() throws Exception {
        harness = ManagerHarness.start(1);
        String reason = harness.request(ControlClient.runRequest(List.of("-Xmx1g"), "app.Big", LONG_WAIT))
                .expect("fallback").get("reason");
        assertEquals("its heap -Xmx1g is above the slot heap of 256 MB", reason);
        harness.slot(0).assertNothingFor(QUIET);
        assertTrue(harness.log().contains("goes to a new JVM: " + reason), harness.log());

        ControlClient fits = harness.request(ControlClient.runRequest(List.of("-Xmx1g", "-Xmx200m"), "app.Small",
                LONG_WAIT));
        long runId = startOn(harness.slot(0), fits, "app.Small");
        harness.slot(0).done(runId, 0);
        assertEquals("0", fits.expect("exit").get("code"));
    }

    @Test
    void aRunOpeningAPackageTheSlotsLackGoesToANewJvm() throws Exception {
        harness = ManagerHarness.start(1);
        String reason = harness.request(ControlClient.runRequest(List.of("--add-opens=java.base/no.such=ALL-UNNAMED"), "app.Opens",
                LONG_WAIT))
                .expect("fallback").get("reason");
        assertTrue(reason.startsWith("module java.base has no package no.such"), reason);
        harness.slot(0).assertNothingFor(QUIET);
        assertTrue(harness.status().contains("runs: completed 0, running 0, queued 0, fallbacks 1"), harness.status()::toString);
    }

    @Test
    void aCommandLineOnlyANewJvmCanTakeGoesToOneWithItsReason() throws Exception {
        harness = ManagerHarness.start(1);
        assertEquals("option -ea is not supported by the pool",
                harness.request(ControlClient.runRequest(List.of("-ea"), "app.Main", LONG_WAIT)).expect("fallback").get("reason"));
        Frame tooled = ControlClient.runRequest("app.Main", LONG_WAIT).add("env", "JAVA_TOOL_OPTIONS=-Dx=1");
        assertEquals("JAVA_TOOL_OPTIONS is set, and only a new JVM applies it",
                harness.request(tooled).expect("fallback").get("reason"));
        harness.slot(0).assertNothingFor(QUIET);
    }

    @Test
    void aSlotStartedOtherwiseThanThePoolsFirstLeavesService() throws Exception {
        harness = ManagerHarness.warmingUp(2, 1);
        harness.slot(1).hello(TestProfiles.withHeap(TestProfiles.HEAP * 2));
        // its own line says why (the summary's "retired 0" would match "retired" at once)
        harness.awaitStatus("the slot that differs retired", "started otherwise than the pool's first slot");
        String status = harness.slotStatus(1);
        assertTrue(status.contains("started otherwise than the pool's first slot: heap 536870912 (the pool's: 268435456)"),
                status);
        ControlClient client = harness.run("app.Main", LONG_WAIT);
        long runId = startOn(harness.slot(0), client, "app.Main");
        harness.slot(0).done(runId, 0);
        assertEquals("0", client.expect("exit").get("code"));
    }
}
