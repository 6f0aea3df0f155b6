package org.jvmreuse.pool.slot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jvmreuse.pool.common.PoolLog;
import org.jvmreuse.pool.config.PoolOptions;
import org.jvmreuse.pool.config.PoolTopology;
import org.jvmreuse.pool.mpi.Doorbells;
import org.jvmreuse.pool.mpi.InProcessMpi;
import org.jvmreuse.pool.mpi.Mpi;
import org.jvmreuse.pool.mpi.MpiTransport;
import org.jvmreuse.pool.mpi.Tags;
import org.jvmreuse.pool.mpi.Wire;
import org.jvmreuse.pool.protocol.RunKind;
import org.jvmreuse.pool.protocol.RunSpec;
import org.jvmreuse.pool.protocol.StartupInputs;
import org.jvmreuse.pool.protocol.StreamPath;
import org.jvmreuse.pool.service.MpiServicePort;

/**
 * A slot obeys its manager only: a SHUTDOWN or PROMOTE from any other rank of the launch (a task
 * in another slot) is dropped and logged; and it holds one run at a time. The slot's MPI loop runs on a thread of the test;
 * rank 0 is its manager, rank 2 the forger.
 */
class SlotRuntimeSenderTest {
    private static final long QUIET_MILLIS = 300;

    @TempDir
    Path dir;
    private final List<InProcessMpi> world = InProcessMpi.world(3);
    private final Doorbells doorbells = new Doorbells();
    private Thread loop;

    @AfterEach
    void stop() throws Exception {
        send(0, Tags.SHUTDOWN, Wire.ints(0));
        loop.join(10_000);
        doorbells.close();
    }

    private void startSlot(boolean spare) throws IOException {
        PoolLog.open(dir, "slot");
        MpiTransport transport = new MpiTransport(world.get(1), doorbells);
        PoolTopology topology = new PoolTopology(0, "node0", 0, spare ? List.of(3) : List.of(1), false,
                spare ? List.of(1) : List.of());
        SlotRuntime slot = new SlotRuntime(topology, dir.resolve("pool.sock"), Map.of(), transport, doorbells,
                PoolOptions.parse(new String[0]), new MpiServicePort(transport, 1), Doorbells.newKey());
        loop = new Thread(() -> {
            try {
                transport.run(slot);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }, "test-slot-loop");
        loop.setDaemon(true);
        loop.start();
    }

    private void send(int from, int tag, byte[] payload) {
        ByteBuffer buffer = ByteBuffer.allocateDirect(payload.length).put(payload).flip();
        world.get(from).iSend(buffer, payload.length, 1, tag);
    }

    private String log() throws IOException {
        return Files.readString(dir.resolve("slot.log"));
    }

    @Test
    void aShutdownFromAnotherRankThanTheManagerIsDropped() throws Exception {
        startSlot(false);
        send(2, Tags.SHUTDOWN, Wire.ints(0));
        loop.join(QUIET_MILLIS);
        assertTrue(loop.isAlive(), "a forged SHUTDOWN ended the slot");
        assertTrue(log().contains("dropping a forged MPI message with tag " + Tags.SHUTDOWN + " from rank 2"), log());
        send(0, Tags.SHUTDOWN, Wire.ints(0));
        loop.join(10_000);
        assertFalse(loop.isAlive(), "the manager's SHUTDOWN must end the slot");
    }

    /** No runner takes runs here: the first LAUNCH stays accepted, as while it runs. */
    @Test
    void aSecondLaunchWhileOneIsInTheSlotIsAnsweredAsNotStarted() throws Exception {
        startSlot(false);
        StreamPath devNull = StreamPath.unchecked("/dev/null");
        RunSpec spec = new RunSpec("app.Main", List.of("app.jar"), List.of(), List.of(), Map.of(), Map.of(), "/",
                devNull, devNull, devNull, RunKind.TASK, List.of(), List.of(), StartupInputs.SLOT);
        send(0, Tags.LAUNCH, Wire.withBytes(1, spec.encode()));
        send(0, Tags.LAUNCH, Wire.withBytes(2, spec.encode()));
        DataInputStream done = Wire.reader(receiveAtManager(Tags.DONE));
        assertEquals(2, done.readLong());
        done.readInt();
        assertFalse(done.readBoolean(), "the second run must be reported as not started");
        assertTrue(done.readUTF().contains("still busy with another run"));
    }

    private byte[] receiveAtManager(int tag) throws InterruptedException {
        InProcessMpi manager = world.get(0);
        for (long deadline = System.nanoTime() + 10_000_000_000L; System.nanoTime() < deadline; Thread.sleep(5)) {
            Mpi.Envelope envelope = manager.iProbe(1, tag);
            if (envelope != null) {
                ByteBuffer buffer = ByteBuffer.allocateDirect(envelope.count());
                manager.recv(buffer, envelope.count(), 1, tag);
                byte[] payload = new byte[envelope.count()];
                buffer.get(payload);
                return payload;
            }
        }
        throw new AssertionError("the manager got no message with tag " + tag);
    }

    @Test
    void aPromotionFromAnotherRankThanTheManagerIsDropped() throws Exception {
        startSlot(true);
        send(2, Tags.PROMOTE, Wire.ints(0, 0));
        Thread.sleep(QUIET_MILLIS);
        assertFalse(log().contains("promoted"), log());
        assertTrue(log().contains("dropping a forged MPI message with tag " + Tags.PROMOTE + " from rank 2"), log());
    }
}
