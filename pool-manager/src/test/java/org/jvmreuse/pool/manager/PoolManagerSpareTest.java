package org.jvmreuse.pool.manager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import org.jvmreuse.pool.mpi.Tags;
import org.jvmreuse.pool.mpi.Wire;
import org.jvmreuse.pool.protocol.Frame;
import org.junit.jupiter.api.Test;

/** Spare ranks take the place of slots that retire or die, so that the pool keeps its slot count. */
class PoolManagerSpareTest extends ManagerTestBase {
    /** The slot index a PROMOTE names. */
    private static int promotedTo(ScriptedSlot spare) throws Exception {
        var in = Wire.reader(spare.next(Tags.PROMOTE).payload());
        in.readLong();
        return in.readInt();
    }

    private String status() {
        return String.join("\n", harness.status());
    }

    @Test
    void aRetiredSlotIsReplacedByASpareAndTheSlotCountStays() throws Exception {
        harness = ManagerHarness.start(1, 0, 2);
        ScriptedSlot slot = harness.slot(0);
        ScriptedSlot spare = harness.spare(0);
        assertTrue(status().contains("replacements: 0 made, 2 spares left (ranks 2,3)"), status());
        ControlClient one = harness.run("One", LONG_WAIT);
        long oneId = startOn(slot, one, "One");
        slot.done(oneId, 0);
        slot.retire("test: clean-up failed");
        assertEquals("0", one.expect("exit").get("code"));

        assertEquals(0, promotedTo(spare), "the first spare takes slot 0's place");
        harness.spare(1).assertNothingFor(QUIET);
        String starting = status();
        assertTrue(starting.contains("slots: 1 (free 0, busy 0, starting 1, retired 0)"), starting);
        assertTrue(starting.contains("replacements: 1 made, 1 spare left (rank 3)"), starting);
        assertTrue(harness.slotStatus(0).startsWith("slot 0: rank 2 pid 0 starting"), harness.slotStatus(0));
        assertTrue(harness.slotStatus(0).contains("replacement 1, in place of rank 1, which retired: test: clean-up failed"),
                harness.slotStatus(0));
        assertTrue(harness.log().contains("spare rank 2 takes the place of slot 0 (rank 1); 1 spare(s) left"), harness.log());

        // A run waits for the replacement while it warms up, then runs on it, not on the retired rank.
        ControlClient two = harness.run("Two", LONG_WAIT);
        assertEquals("1", two.expect("queued").get("position"));
        spare.hello();
        long twoId = startOn(spare, two, "Two");
        spare.done(twoId, 0);
        spare.free(twoId);
        assertEquals("0", two.expect("exit").get("code"));
        harness.awaitStatus("the replacement is free", "slots: 1 (free 1, busy 0, starting 0, retired 0)");
        assertTrue(harness.slotStatus(0).startsWith("slot 0: rank 2 pid 1002 free busy=0 runs=1 reuse_hits=0"),
                harness.slotStatus(0));
        slot.assertNothingFor(QUIET);

        // A stop also ends the spare that was never needed.
        harness.request(new Frame("stop")).expect("ok");
        spare.next(Tags.SHUTDOWN);
        harness.spare(1).next(Tags.SHUTDOWN);
        harness.awaitManagerEnd();
    }

    @Test
    void aSlotThatDiesIsReplacedAndItsRunEndsAsBefore() throws Exception {
        harness = ManagerHarness.start(2, 0, 1);
        ScriptedSlot doomed = harness.slot(0);
        ScriptedSlot spare = harness.spare(0);
        ControlClient lost = harness.run("Lost", LONG_WAIT);
        startOn(doomed, lost, "Lost");

        doomed.die();
        assertEquals("137", lost.expect("exit").get("code"));
        assertEquals(0, promotedTo(spare));
        spare.hello();
        harness.awaitStatus("the replacement is free", "slots: 2 (free 2, busy 0, starting 0, retired 0)");
        assertTrue(harness.slotStatus(0).contains("in place of rank 1, which retired: its process ended unexpectedly"),
                harness.slotStatus(0));
        assertTrue(status().contains("replacements: 1 made, 0 spares left"), status());

        // The dead rank's RETIRE, sent before it went but read after its doorbell closed, says why it left.
        sendAsIfFrom(doomed, Tags.RETIRE, Wire.text(0, "test: its heap stayed full"));
        Await.until("the late RETIRE is read", () -> harness.slotStatus(0).contains("which retired: test: its heap stayed full"));
        assertTrue(harness.slotStatus(0).startsWith("slot 0: rank 3 pid 1003 free"), harness.slotStatus(0));
    }

    @Test
    void withNoSpareLeftThePoolServesOnWithFewerSlotsThenFallsBack() throws Exception {
        harness = ManagerHarness.start(1, 0, 1);
        ScriptedSlot slot = harness.slot(0);
        ScriptedSlot spare = harness.spare(0);
        slot.retire("test: first");
        assertEquals(0, promotedTo(spare));

        // The promoted spare cannot start: with none left, the queued run falls back at once.
        ControlClient queued = harness.run("Queued", LONG_WAIT);
        queued.expect("queued");
        spare.retire("cannot start: test");
        assertTrue(queued.expect("fallback").get("reason").contains("no usable slot"));
        String status = status();
        assertTrue(status.contains("slots: 1 (free 0, busy 0, starting 0, retired 1)"), status);
        assertTrue(status.contains("replacements: 1 made, 0 spares left; 1 slot retired with no spare to replace it: "
                + "serving with 0 of 1"), status);
        assertTrue(harness.log().contains("no spare left to replace slot 0 (rank 2): the pool serves on with 0 of 1 slots"),
                harness.log());
        assertTrue(harness.run("After", LONG_WAIT).expect("fallback").get("reason").contains("no usable slot"));
    }

    @Test
    void aLateRetireOfASlotLeftRetiredOnlySaysWhy() throws Exception {
        harness = ManagerHarness.start(2, 0, 1);
        harness.spare(0).die();
        harness.awaitStatus("the spare is gone", "0 spares left");
        ScriptedSlot doomed = harness.slot(0);
        doomed.die();
        harness.awaitStatus("the slot retired", "retired 1)");
        sendAsIfFrom(doomed, Tags.RETIRE, Wire.text(0, "test: its heap stayed full"));
        Await.until("the late RETIRE is read", () -> harness.slotStatus(0).contains("(retired: test: its heap stayed full)"));
        assertEquals(1, harness.log().split("no spare left to replace slot 0", -1).length - 1, harness.log());
        assertTrue(status().contains("slots: 2 (free 1, busy 0, starting 0, retired 1)"), status());
    }

    /** A message the rank of {@code slot} sent before it died, read by the manager only now. */
    private void sendAsIfFrom(ScriptedSlot slot, int tag, byte[] payload) {
        ByteBuffer buffer = ByteBuffer.allocateDirect(payload.length).put(payload).flip();
        harness.world.get(slot.rank()).iSend(buffer, payload.length, ManagerHarness.MANAGER_RANK, tag);
    }

    @Test
    void aSpareThatDiesOrCannotStartIsNoLongerCounted() throws Exception {
        harness = ManagerHarness.start(1, 0, 3);
        harness.spare(0).die();
        harness.awaitStatus("the dead spare is dropped", "replacements: 0 made, 2 spares left (ranks 3,4)");
        harness.spare(1).retire("cannot start: test");
        harness.awaitStatus("the spare that could not start is dropped", "replacements: 0 made, 1 spare left (rank 4)");
        assertTrue(harness.log().contains("spare rank 2 died; 2 spare(s) left"), harness.log());
        assertTrue(harness.log().contains("spare rank 3 retired: cannot start: test; 1 spare(s) left"), harness.log());

        harness.slot(0).retire("test");
        assertEquals(0, promotedTo(harness.spare(2)), "the live spare is promoted, not the dead ones");
        harness.spare(1).assertNothingFor(QUIET);
        assertTrue(status().contains("replacements: 1 made, 0 spares left"), status());
    }

    @Test
    void aDrainingPoolMakesNoReplacement() throws Exception {
        harness = ManagerHarness.start(2, 0, 1);
        harness.request(new Frame("drain")).expect("ok");
        harness.slot(0).retire("test");
        harness.awaitStatus("the slot retired", "retired 1)");
        harness.spare(0).assertNothingFor(QUIET);
        assertFalse(status().contains("replacements: 1 made"), status());
    }
}
