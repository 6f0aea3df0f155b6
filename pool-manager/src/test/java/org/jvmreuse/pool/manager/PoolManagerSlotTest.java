package org.jvmreuse.pool.manager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.jvmreuse.pool.mpi.Mpi;
import org.jvmreuse.pool.mpi.Tags;
import org.jvmreuse.pool.mpi.Wire;
import org.jvmreuse.pool.protocol.Frame;

/** How the Pool Manager copes with its slots: deaths, retirements, and messages that are not theirs. */
class PoolManagerSlotTest extends ManagerTestBase {
    /** Nothing of a run ran before its STARTED: a new JVM is safe, where 137 would fail a YARN attempt. */
    @Test
    void aRunWhoseSlotIsLostBeforeItStartedFallsBack() throws Exception {
        harness = ManagerHarness.start(2);
        ControlClient died = harness.run("Died", LONG_WAIT);
        harness.slot(0).nextLaunch("Died");
        harness.slot(0).die();
        assertTrue(died.expect("fallback").get("reason").contains("before the run started"));
        ControlClient retired = harness.run("Retired", LONG_WAIT);
        harness.slot(1).nextLaunch("Retired");
        harness.slot(1).retire("cannot clean up");
        assertTrue(retired.expect("fallback").get("reason").contains("cannot clean up"));
    }

    @Test
    void aSlotLostMidRunEndsItsRunWith137AndTheOtherSlotsServeOn() throws Exception {
        harness = ManagerHarness.start(2);
        ScriptedSlot doomed = harness.slot(0);
        ScriptedSlot survivor = harness.slot(1);
        ControlClient lost = harness.run("Lost", LONG_WAIT);
        startOn(doomed, lost, "Lost");
        ControlClient other = harness.run("Other", LONG_WAIT);
        long otherId = startOn(survivor, other, "Other");
        ControlClient waiting = harness.run("Waiting", LONG_WAIT);
        waiting.expect("queued");

        doomed.die();
        Frame exit = lost.expect("exit");
        assertEquals("137", exit.get("code"));
        assertTrue(exit.get("message").contains("died"), exit::toString);
        String slotLine = harness.slotStatus(0);
        assertTrue(slotLine.contains(" retired ") && slotLine.contains("ended unexpectedly"), slotLine);
        assertFalse(waiting.hasReply(), "the queued run waits for the surviving slot");

        survivor.done(otherId, 0);
        survivor.free(otherId);
        other.expect("exit");
        survivor.finishRun(survivor.nextLaunch("Waiting"), 5);
        waiting.expect("started");
        assertEquals("5", waiting.expect("exit").get("code"));
        // The client hears the exit before the manager reads the slot's FREE.
        harness.awaitStatus("the survivor is free again", "(free 1, busy 0");
        ControlClient after = harness.run("After", LONG_WAIT);
        startOn(survivor, after, "After");
        assertNull(harness.world.get(doomed.rank()).iProbe(Mpi.ANY_SOURCE, Mpi.ANY_TAG),
                "nothing was sent to the dead slot");
    }

    @Test
    void aRetiredSlotGetsNoMoreRunsAndTheLastRetirementFailsTheQueue() throws Exception {
        harness = ManagerHarness.start(2);
        ScriptedSlot first = harness.slot(0);
        ScriptedSlot second = harness.slot(1);
        ControlClient one = harness.run("One", LONG_WAIT);
        long oneId = startOn(first, one, "One");
        first.done(oneId, 0);
        first.retire("test: clean-up failed");
        assertEquals("0", one.expect("exit").get("code"));
        harness.awaitStatus("the first slot retired", "retired 1)");
        assertTrue(harness.slotStatus(0).contains("(retired: test: clean-up failed)"), harness.slotStatus(0));

        ControlClient two = harness.run("Two", LONG_WAIT);
        long twoId = startOn(second, two, "Two");
        ControlClient three = harness.run("Three", LONG_WAIT);
        assertEquals("1", three.expect("queued").get("position"), "the retired slot is not used");
        first.assertNothingFor(QUIET);

        second.done(twoId, 0);
        second.retire("test: clean-up failed again");
        assertEquals("0", two.expect("exit").get("code"));
        assertTrue(three.expect("fallback").get("reason").contains("no usable slot"));
        assertTrue(harness.run("Four", LONG_WAIT).expect("fallback").get("reason").contains("no usable slot"));
        first.assertNothingFor(QUIET);
        second.assertNothingFor(Duration.ZERO);
    }

    @Test
    void serviceMessagesGoToTheServicePortNotToTheManager() throws Exception {
        harness = ManagerHarness.start(1, 1);
        BlockingQueue<String> received = new LinkedBlockingQueue<>();
        harness.port.receiveWith((source, message) -> {
            byte[] bytes = new byte[message.remaining()];
            message.get(bytes);
            received.add(source + ":" + new String(bytes, StandardCharsets.UTF_8));
        });
        // Short payloads: the manager's own handler could not even read a run id from them.
        harness.slot(0).send(Tags.SERVICE, "map".getBytes(StandardCharsets.UTF_8));
        harness.outsider(0).send(Tags.SERVICE, "far".getBytes(StandardCharsets.UTF_8));
        Set<String> both = new HashSet<>(); // two senders: either may come first
        both.add(received.poll(Await.PATIENCE.toMillis(), TimeUnit.MILLISECONDS));
        both.add(received.poll(Await.PATIENCE.toMillis(), TimeUnit.MILLISECONDS));
        assertEquals(Set.of("1:map", "2:far"), both);

        harness.awaitStatus("the manager still serves", "slots: 1 (free 1,");
        assertFalse(harness.log().contains("tag " + Tags.SERVICE), harness.log());
    }

    @Test
    void messagesFromARankOutsideThePoolAreIgnored() throws Exception {
        harness = ManagerHarness.start(1, 1);
        ScriptedSlot slot = harness.slot(0);
        ScriptedSlot stranger = harness.outsider(0);
        ControlClient client = harness.run("Main", LONG_WAIT);
        long runId = slot.nextLaunch("Main");

        // The stranger claims the slot's run and tries to join the pool.
        stranger.hello();
        stranger.started(runId);
        stranger.send(Tags.DONE, Wire.intFlagAndText(runId, 99, true, "forged"));
        stranger.free(runId);
        stranger.retire("forged");
        // The in-process world delivers one sender's messages in order, whatever their tags:
        // once the RETIRE is handled (ignored, or failed), so are the others.
        Await.until("the manager has handled the stranger's RETIRE",
                () -> harness.log().contains("with tag " + Tags.RETIRE + " from rank " + stranger.rank()));
        assertFalse(client.hasReply(), "nothing reached the client");
        for (int tag : new int[] {Tags.HELLO, Tags.STARTED, Tags.DONE, Tags.FREE, Tags.RETIRE}) {
            assertTrue(harness.log().contains("ignoring MPI message with tag " + tag + " from rank " + stranger.rank()
                    + ", not a slot of this pool"), harness.log());
        }

        slot.started(runId);
        assertEquals(String.valueOf(slot.rank()), client.expect("started").get("rank"));
        slot.done(runId, 7);
        assertEquals("7", client.expect("exit").get("code"));
        ControlClient queued = harness.run("Queued", LONG_WAIT);
        assertEquals("1", queued.expect("queued").get("position"), "the stranger is no free slot");
        slot.free(runId);
        slot.nextLaunch("Queued");
        stranger.assertNothingFor(QUIET);
        String status = String.join("\n", harness.status());
        assertTrue(status.contains("slots: 1 (free 0, busy 1, starting 0, retired 0)"), status);

        // Nor may the stranger connect a doorbell here.
        Frame refused = harness.request(new Frame("doorbell").add("rank", stranger.rank())).expect("error");
        assertTrue(refused.get("message").contains("not a slot of this pool"), refused::toString);
        harness.assertManagerHealthy();
    }

    /**
     * A slot whose runner fails (an Error escaping TaskRun.execute) sends RETIRE without DONE:
     * its run ends as killed, with the reason, and a stop still finishes.
     */
    @Test
    void aSlotRetiringMidRunEndsItsRun() throws Exception {
        harness = ManagerHarness.start(1);
        ScriptedSlot slot = harness.slot(0);
        ControlClient client = harness.run("Main", LONG_WAIT);
        startOn(slot, client, "Main");
        slot.retire("slot runner failed: java.lang.StackOverflowError");
        Frame exit = client.expect("exit");
        assertEquals("137", exit.get("code"));
        assertTrue(exit.get("message").contains("StackOverflowError"), exit.get("message"));
        harness.request(new Frame("stop")).expect("ok");
        harness.awaitManagerEnd();
        slot.assertNothingFor(QUIET); // a retired slot gets no SHUTDOWN: it has left already
    }
}
