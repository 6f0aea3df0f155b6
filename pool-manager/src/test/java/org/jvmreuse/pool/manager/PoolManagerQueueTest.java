package org.jvmreuse.pool.manager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jvmreuse.pool.mpi.Tags;
import org.jvmreuse.pool.protocol.Frame;
import org.junit.jupiter.api.Test;

/** The Pool Manager's queue, wait limits, drain and stop, against scripted slots. */
class PoolManagerQueueTest extends ManagerTestBase {
    @Test
    void queuedRunsAreLaunchedInArrivalOrder() throws Exception {
        harness = ManagerHarness.start(1);
        ScriptedSlot slot = harness.slot(0);
        ControlClient first = harness.run("First", LONG_WAIT);
        long firstId = startOn(slot, first, "First");
        List<String> mains = List.of("Second", "Third", "Fourth");
        List<ControlClient> queued = new ArrayList<>();
        for (int i = 0; i < mains.size(); i++) {
            ControlClient client = harness.run(mains.get(i), LONG_WAIT);
            // Waiting for each reply fixes the arrival order.
            assertEquals(String.valueOf(i + 1), client.expect("queued").get("position"));
            queued.add(client);
        }
        assertTrue(harness.status().contains("runs: completed 0, running 1, queued 3, fallbacks 0"), harness.status()::toString);

        slot.done(firstId, 0);
        assertEquals("0", first.expect("exit").get("code"));
        slot.free(firstId);
        List<String> launched = new ArrayList<>();
        for (int i = 0; i < mains.size(); i++) {
            ScriptedSlot.Received launch = slot.next(Tags.LAUNCH);
            launched.add(launch.spec().mainClass());
            assertEquals(mains.subList(0, i + 1), launched, "launched so far");
            assertEquals(List.of("first", "second"), launch.spec().args());
            slot.finishRun(launch.runId(), 10 + i);
            ControlClient client = queued.get(i);
            client.expect("started");
            assertEquals(String.valueOf(10 + i), client.expect("exit").get("code"));
        }
        assertEquals(mains, launched);
        assertTrue(harness.status().contains("runs: completed 4, running 0, queued 0, fallbacks 0"), harness.status()::toString);
    }

    @Test
    void aQueuedRunFallsBackWhenItsWaitPasses() throws Exception {
        harness = ManagerHarness.start(1);
        ScriptedSlot slot = harness.slot(0);
        ControlClient busy = harness.run("Busy", LONG_WAIT);
        long busyId = startOn(slot, busy, "Busy");
        long sentAt = System.nanoTime(); // before the manager's timer starts, so at least the wait passes
        ControlClient impatient = harness.run("Impatient", 120);
        assertEquals("1", impatient.expect("queued").get("position"));
        String reason = impatient.expect("fallback").get("reason");
        assertTrue(System.nanoTime() - sentAt >= Duration.ofMillis(120).toNanos(), "fell back before its wait passed");
        assertTrue(reason.contains("120 ms"), reason);
        assertTrue(harness.status().contains("runs: completed 0, running 1, queued 0, fallbacks 1"), harness.status()::toString);

        // The run that fell back left the queue: the next run is the next one launched.
        ControlClient next = harness.run("Next", LONG_WAIT);
        assertEquals("1", next.expect("queued").get("position"));
        slot.done(busyId, 0);
        slot.free(busyId);
        busy.expect("exit");
        slot.finishRun(slot.nextLaunch("Next"), 0);
        next.expect("started");
        next.expect("exit");
    }

    /**
     * While slots still warm up after the pool's start, a run that finds no free slot goes to a new
     * JVM at once (waiting for a warming slot could be slower than the stock path); once every slot
     * has started, runs queue for a busy slot as before.
     */
    @Test
    void whileSlotsWarmUpARunWithNoFreeSlotFallsBackAtOnceAfterwardsItQueues() throws Exception {
        harness = ManagerHarness.warmingUp(2, 1);
        ScriptedSlot warm = harness.slot(0);
        ScriptedSlot warming = harness.slot(1);
        ControlClient first = harness.run("First", LONG_WAIT);
        long firstId = startOn(warm, first, "First");
        String reason = harness.run("Second", LONG_WAIT).expect("fallback").get("reason");
        assertTrue(reason.contains("still warming up (1 of 2 slots starting)"), reason);
        warming.assertNothingFor(QUIET);

        warming.hello();
        harness.awaitStatus("the second slot is up", "slots: 2 (free 1,");
        ControlClient third = harness.run("Third", LONG_WAIT);
        long thirdId = startOn(warming, third, "Third");
        ControlClient fourth = harness.run("Fourth", LONG_WAIT);
        assertEquals("1", fourth.expect("queued").get("position"), "every slot started: a run waits for a busy one");
        warm.done(firstId, 0);
        first.expect("exit");
        warm.free(firstId);
        warm.finishRun(warm.nextLaunch("Fourth"), 0);
        fourth.expect("started");
        fourth.expect("exit");
        warming.done(thirdId, 0);
        third.expect("exit");
        assertTrue(harness.status().contains("runs: completed 3, running 0, queued 0, fallbacks 1"), harness.status()::toString);
    }

    @Test
    void aRunFallsBackAtOnceWhenEverySlotHasRetired() throws Exception {
        harness = ManagerHarness.start(2);
        harness.slot(0).retire("test: cannot start");
        harness.slot(1).retire("test: cannot start");
        harness.awaitStatus("both slots retired", "retired 2)");
        ControlClient client = harness.run("Main", LONG_WAIT);
        String reason = client.expect("fallback").get("reason");
        assertTrue(reason.contains("no usable slot"), reason);
    }

    @Test
    void drainFallsBackQueuedAndNewRunsWhileTheRunningOneFinishes() throws Exception {
        harness = ManagerHarness.start(1);
        ScriptedSlot slot = harness.slot(0);
        ControlClient running = harness.run("Running", LONG_WAIT);
        long runningId = startOn(slot, running, "Running");
        ControlClient queued = harness.run("Queued", LONG_WAIT);
        queued.expect("queued");

        harness.request(new Frame("drain")).expect("ok");
        assertTrue(queued.expect("fallback").get("reason").contains("draining"));
        ControlClient late = harness.run("Late", LONG_WAIT);
        assertTrue(late.expect("fallback").get("reason").contains("draining"));
        assertTrue(harness.status().get(0).contains(": draining, socket "), harness.status()::toString);

        slot.done(runningId, 3);
        assertEquals("3", running.expect("exit").get("code"));
        slot.free(runningId);
        slot.assertNothingFor(QUIET);
        assertTrue(harness.status().contains("runs: completed 1, running 0, queued 0, fallbacks 2"), harness.status()::toString);
        assertTrue(harness.managerRunning(), "draining does not stop the manager");
    }

    @Test
    void stopShutsDownEverySlotOnceIdleAndEndsTheManager() throws Exception {
        harness = ManagerHarness.start(2);
        ScriptedSlot first = harness.slot(0);
        ScriptedSlot second = harness.slot(1);
        ControlClient running = harness.run("Running", LONG_WAIT);
        long runningId = startOn(first, running, "Running");

        harness.request(new Frame("stop")).expect("ok");
        harness.awaitStatus("the stop is under way", ": stopping, socket ");
        assertTrue(harness.run("Late", LONG_WAIT).expect("fallback").get("reason").contains("stopping"));
        second.assertNothingFor(QUIET);
        first.done(runningId, 0);
        assertEquals("0", running.expect("exit").get("code"));
        first.assertNothingFor(QUIET); // still busy cleaning up
        assertTrue(harness.managerRunning());

        first.free(runningId);
        first.next(Tags.SHUTDOWN);
        second.next(Tags.SHUTDOWN);
        harness.awaitManagerEnd();
    }

    @Test
    void stopNowSignalsRunningRunsWithNine() throws Exception {
        harness = ManagerHarness.start(2);
        List<ControlClient> clients = new ArrayList<>();
        List<Long> runIds = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            ControlClient client = harness.run("Main" + i, LONG_WAIT);
            runIds.add(startOn(harness.slot(i), client, "Main" + i));
            clients.add(client);
        }
        harness.request(new Frame("stop").add("now", 1)).expect("ok");
        for (int i = 0; i < 2; i++) {
            ScriptedSlot slot = harness.slot(i);
            ScriptedSlot.Received signal = slot.next(Tags.SIGNAL);
            assertEquals(runIds.get(i), signal.runId());
            assertEquals(9, signal.signal());
            slot.done(signal.runId(), 137);
            slot.free(signal.runId());
            assertEquals("137", clients.get(i).expect("exit").get("code"));
        }
        harness.slot(0).next(Tags.SHUTDOWN);
        harness.slot(1).next(Tags.SHUTDOWN);
        harness.awaitManagerEnd();
        assertFalse(harness.managerRunning());
    }
}
