package org.jvmreuse.pool.manager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import org.junit.jupiter.api.Test;
import org.jvmreuse.pool.mpi.Tags;
import org.jvmreuse.pool.protocol.Frame;
import org.jvmreuse.pool.protocol.FrameChannel;

/** Faults stay where they happen: no message, doorbell or signal flood takes the manager down or a live slot out. */
class PoolManagerFaultTest extends ManagerTestBase {
    /**
     * A slot of another pool on this host rings this manager too (its reducers fetch from this
     * manager's Shuffle Manager): admitted with its key, once; its end-of-file takes no slot here.
     */
    @Test
    void aNeighbourPoolsSlotConnectsADoorbellWhoseEndTakesNoSlotOfThisPool() throws Exception {
        harness = ManagerHarness.start(1, 1);
        ScriptedSlot neighbour = harness.outsider(0);
        harness.expectNeighbour(neighbour);
        harness.request(new Frame("doorbell").add("rank", neighbour.rank()).add("key", "0123456789abcdef")).expect("error");
        neighbour.connectDoorbell(harness.socket());
        Await.until("the manager admits the neighbour's doorbell", () -> harness.rings(neighbour.rank()));
        harness.request(new Frame("doorbell").add("rank", neighbour.rank()).add("key", neighbour.doorbellKey))
                .expect("error");
        neighbour.die();
        Await.until("the manager sees the neighbour's doorbell close", () -> !harness.rings(neighbour.rank()));
        Thread.sleep(QUIET.toMillis());
        assertTrue(harness.status().stream().anyMatch(l -> l.contains("slots: 1 (free 1,")), harness.status().toString());
        ControlClient client = harness.run("app.Main", LONG_WAIT);
        long runId = startOn(harness.slot(0), client, "app.Main");
        harness.slot(0).done(runId, 0);
        assertEquals("0", client.expect("exit").get("code"));
        harness.assertManagerHealthy();
    }

    @Test
    void aDoorbellWithoutTheSlotsKeyIsRefusedAndCannotDeclareTheSlotDead() throws Exception {
        harness = ManagerHarness.start(1);
        String noKey = harness.request(new Frame("doorbell").add("rank", 1)).expect("error").get("message");
        assertTrue(noKey.contains("does not carry that slot's key"), noKey);
        harness.request(new Frame("doorbell").add("rank", 1).add("key", "0123456789abcdef")).expect("error");
        // The real key, a second time: only the slot's own first connection is its doorbell.
        harness.request(new Frame("doorbell").add("rank", 1).add("key", harness.slot(0).doorbellKey)).expect("error");
        // A forged doorbell that is simply closed, as the attack would do, leaves the slot as it was.
        try (SocketChannel forged = SocketChannel.open(UnixDomainSocketAddress.of(harness.socket()))) {
            new FrameChannel(forged).write(new Frame("doorbell").add("rank", 1));
        }
        Thread.sleep(QUIET.toMillis());
        assertTrue(harness.status().stream().anyMatch(l -> l.contains("slots: 1 (free 1,")), harness.status().toString());
        ControlClient client = harness.run("app.Main", LONG_WAIT);
        long runId = startOn(harness.slot(0), client, "app.Main");
        harness.slot(0).done(runId, 0);
        assertEquals("0", client.expect("exit").get("code"));
    }

    @Test
    void anErrorThrownByTheServiceReceiverFailsThatMessageOnlyAndTheManagerServesOn() throws Exception {
        harness = ManagerHarness.start(1);
        harness.port.receiveWith((source, message) -> {
            throw message.get(0) == 1 ? new OutOfMemoryError("injected: Direct buffer memory")
                    : new AssertionError("injected: a service's bug");
        });
        harness.slot(0).send(Tags.SERVICE, new byte[] {0});
        harness.slot(0).send(Tags.SERVICE, new byte[] {1});
        Await.until("the manager has logged both faults", () -> harness.log().contains("a service's bug")
                && harness.log().contains("Direct buffer memory"));
        harness.assertManagerHealthy();
        assertTrue(harness.managerRunning(), "the manager must survive a service's error");
        ControlClient client = harness.run("app.Main", LONG_WAIT);
        long runId = startOn(harness.slot(0), client, "app.Main");
        harness.slot(0).done(runId, 0);
        assertEquals("0", client.expect("exit").get("code"));
    }

    @Test
    void aFloodOfSigquitReachesTheSlotAsOneThreadDumpAndOtherSignalsStillPass() throws Exception {
        harness = ManagerHarness.start(1);
        ControlClient client = harness.run("app.Main", LONG_WAIT);
        ScriptedSlot slot = harness.slot(0);
        long runId = startOn(slot, client, "app.Main");
        for (int i = 0; i < 2000; i++) {
            client.write(new Frame("signal").add("sig", 3));
        }
        client.write(new Frame("signal").add("sig", 15));
        int quits = 0;
        ScriptedSlot.Received received;
        while ((received = slot.next(Tags.SIGNAL)).signal() == 3) {
            quits++;
        }
        assertEquals(15, received.signal());
        assertTrue(quits >= 1 && quits <= 20, "2000 SIGQUITs reached the slot as " + quits + " thread dumps");
        slot.done(runId, 143);
        assertEquals("143", client.expect("exit").get("code"));
    }

    @Test
    void aFloodOfSigtermReachesTheSlotOnceAndSigkillStillPasses() throws Exception {
        harness = ManagerHarness.start(1);
        ControlClient client = harness.run("app.Main", LONG_WAIT);
        ScriptedSlot slot = harness.slot(0);
        long runId = startOn(slot, client, "app.Main");
        for (int i = 0; i < 2000; i++) {
            client.write(new Frame("signal").add("sig", 15));
        }
        client.write(new Frame("signal").add("sig", 9));
        client.write(new Frame("signal").add("sig", 9));
        assertEquals(15, slot.next(Tags.SIGNAL).signal());
        assertEquals(9, slot.next(Tags.SIGNAL).signal(), "one SIGTERM, then the SIGKILL");
        slot.assertNothingFor(QUIET);
        slot.done(runId, 137);
        assertEquals("137", client.expect("exit").get("code"));
    }
}
