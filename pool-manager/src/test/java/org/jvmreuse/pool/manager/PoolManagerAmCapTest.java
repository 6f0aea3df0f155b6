package org.jvmreuse.pool.manager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.jvmreuse.pool.protocol.Frame;

/**
 * Application masters (runs of kind am) hold at most --am-slots slots; one that waits for the cap
 * keeps its place in the queue but lets the tasks behind it take free slots.
 */
class PoolManagerAmCapTest extends ManagerTestBase {
    @Test
    void applicationMastersHoldNoMoreSlotsThanTheCapWhateverIsFree() throws Exception {
        harness = ManagerHarness.start(3); // the default cap: 2 of 3
        ControlClient first = harness.runAm("Am1", LONG_WAIT);
        startOn(harness.slot(0), first, "Am1");
        ControlClient second = harness.runAm("Am2", LONG_WAIT);
        startOn(harness.slot(1), second, "Am2");
        ControlClient third = harness.runAm("Am3", LONG_WAIT);
        assertEquals("1", third.expect("queued").get("position"));
        harness.slot(2).assertNothingFor(QUIET);

        List<String> status = harness.status();
        assertTrue(status.contains("application masters: 2 in slots, at most 2 (--am-slots), 0 completed"), status::toString);
        assertTrue(harness.slotStatus(0).contains(" kind=am ("), status::toString);
        assertTrue(harness.slotStatus(2).startsWith("slot 2: rank 3 pid 1003 free busy=0 runs=0 reuse_hits=0 ("),
                status::toString);
        String json = harness.request(new Frame("status").add("format", "json")).expect("status").get("json");
        assertTrue(json.contains(",\"am_slots\":2,\"am_running\":2,\"am_runs_completed\":0,\"spares\":[],"), json);
        assertTrue(json.contains("\"replaced\":null,\"kind\":\"am\"}") && json.endsWith("\"replaced\":null,\"kind\":null}]}"), json);
    }

    @Test
    void anApplicationMasterAtTheCapDoesNotBlockTheTasksQueuedBehindIt() throws Exception {
        harness = ManagerHarness.start(2); // the default cap: 1 of 2
        ScriptedSlot taskSlot = harness.slot(1);
        startOn(harness.slot(0), harness.runAm("Am1", LONG_WAIT), "Am1");
        ControlClient task1 = harness.run("Task1", LONG_WAIT);
        long task1Id = startOn(taskSlot, task1, "Task1");
        ControlClient am2 = harness.runAm("Am2", LONG_WAIT);
        assertEquals("1", am2.expect("queued").get("position"));
        ControlClient task2 = harness.run("Task2", LONG_WAIT);
        assertEquals("2", task2.expect("queued").get("position"));
        ControlClient task3 = harness.run("Task3", LONG_WAIT);
        assertEquals("3", task3.expect("queued").get("position"));

        taskSlot.done(task1Id, 0); // started by startOn already: a second STARTED would be dropped
        taskSlot.free(task1Id);
        assertEquals("0", task1.expect("exit").get("code"));
        long task2Id = startOn(taskSlot, task2, "Task2"); // past the capped application master, tasks in order
        taskSlot.done(task2Id, 0);
        taskSlot.free(task2Id);
        startOn(taskSlot, task3, "Task3");
        assertFalse(am2.hasReply(), "the capped application master still waits");
        assertTrue(harness.status().contains("runs: completed 2, running 2, queued 1, fallbacks 0"), harness.status()::toString);
    }

    @Test
    void anApplicationMasterWaitingAtTheCapStartsOnceAnotherHasLeftItsSlot() throws Exception {
        harness = ManagerHarness.start(2);
        ScriptedSlot slot = harness.slot(0);
        ControlClient am1 = harness.runAm("Am1", LONG_WAIT);
        long am1Id = startOn(slot, am1, "Am1");
        ControlClient am2 = harness.runAm("Am2", LONG_WAIT);
        am2.expect("queued");
        harness.slot(1).assertNothingFor(QUIET);

        slot.done(am1Id, 0);
        assertEquals("0", am1.expect("exit").get("code"));
        slot.assertNothingFor(QUIET); // its slot is cleaning up: still held by an application master
        harness.slot(1).assertNothingFor(QUIET);
        slot.free(am1Id);
        startOn(slot, am2, "Am2"); // the slot that last ran its class path
        assertTrue(harness.status().contains("application masters: 1 in slots, at most 1 (--am-slots), 1 completed"),
                harness.status()::toString);
    }

    @Test
    void anApplicationMasterWaitingAtTheCapStartsWhenTheSlotOfAnotherDies() throws Exception {
        harness = ManagerHarness.start(2);
        ControlClient am1 = harness.runAm("Am1", LONG_WAIT);
        startOn(harness.slot(0), am1, "Am1");
        ControlClient am2 = harness.runAm("Am2", LONG_WAIT);
        am2.expect("queued");

        harness.slot(0).die();
        assertEquals("137", am1.expect("exit").get("code"));
        startOn(harness.slot(1), am2, "Am2");
    }

    @Test
    void anApplicationMasterWhoseWaitPassesAtTheCapFallsBackNamingTheCap() throws Exception {
        harness = ManagerHarness.start(3); // cap 2
        startOn(harness.slot(0), harness.runAm("Am1", LONG_WAIT), "Am1");
        startOn(harness.slot(1), harness.runAm("Am2", LONG_WAIT), "Am2");
        ControlClient capped = harness.runAm("Am3", 120);
        capped.expect("queued");
        String reason = capped.expect("fallback").get("reason");
        assertEquals("no slot for an application master within 120 ms: application masters hold 2 slots, as many as"
                + " the pool gives them (--am-slots 2); the others are kept for tasks", reason);

        startOn(harness.slot(2), harness.run("Task", LONG_WAIT), "Task");
        ControlClient busy = harness.run("Late", 120);
        busy.expect("queued");
        assertEquals("no slot became free within 120 ms", busy.expect("fallback").get("reason"),
                "a task that finds every slot busy is told so");
    }

    @Test
    void withNoApplicationMasterSlotsApplicationMastersFallBackAtOnce() throws Exception {
        harness = ManagerHarness.withAmSlots(1, 0);
        String reason = harness.runAm("Am", LONG_WAIT).expect("fallback").get("reason");
        assertEquals("this pool runs no application masters (--am-slots 0)", reason);
        harness.slot(0).assertNothingFor(QUIET);
        ControlClient task = harness.run("Task", LONG_WAIT);
        startOn(harness.slot(0), task, "Task");
        assertTrue(harness.status().contains("application masters: 0 in slots, at most 0 (--am-slots), 0 completed"),
                harness.status()::toString);
    }

    @Test
    void anUnknownKindIsRefused() throws Exception {
        harness = ManagerHarness.start(1);
        String message = harness.request(ControlClient.runRequest("M", LONG_WAIT).add("kind", "daemon"))
                .expect("error").get("message");
        assertEquals("kind must be task or am, got 'daemon'", message);
    }
}
