package org.jvmreuse.pool.mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * An error while handling one message fails that message: the communication loop (and so the
 * rank) goes on, the handler hears which run the message was about, and an error that may have
 * damaged the JVM is reported to it (a slot retires on that), unless it was an out-of-memory
 * error of the idle loop, which had nothing in hand. A send that runs out of memory on its way to
 * MPI is not lost.
 */
class MpiTransportFaultTest {
    private static final long PATIENCE_SECONDS = 10;

    private static final class Receiver implements MpiTransport.Handler {
        final BlockingQueue<String> events = new LinkedBlockingQueue<>();
        volatile Error idleCheckFails;

        @Override
        public void onMessage(int source, int tag, byte[] payload) throws Exception {
            long runId = Wire.reader(payload).readLong();
            if (runId == 1) {
                throw new AssertionError("injected: a bug");
            }
            if (runId == 2) {
                throw new OutOfMemoryError("injected: Java heap space");
            }
            if (runId == 3) {
                throw new StackOverflowError();
            }
            events.add("message " + runId);
        }

        @Override
        public void onMessageFailed(int source, int tag, long runId, Throwable failure) {
            events.add("failed " + runId + " tag " + tag + ": " + failure.getClass().getSimpleName());
        }

        @Override
        public void onFault(Throwable fault) {
            events.add("fault " + fault.getClass().getSimpleName());
        }

        @Override
        public void onPeerLost(int rank) {
        }

        @Override
        public boolean everyPeerRings() {
            Error fault = idleCheckFails;
            if (fault != null) {
                idleCheckFails = null;
                throw fault;
            }
            return false;
        }

        String next() throws InterruptedException {
            return events.poll(PATIENCE_SECONDS, TimeUnit.SECONDS);
        }
    }

    @Test
    void anErrorFailsItsMessageOnlyAndADamagingOneIsReported() throws Exception {
        List<InProcessMpi> world = InProcessMpi.world(2);
        MpiTransport receiving = new MpiTransport(world.get(1), new Doorbells());
        Receiver receiver = new Receiver();
        AtomicReference<Throwable> escaped = new AtomicReference<>();
        Thread loop = new Thread(() -> {
            try {
                receiving.run(receiver);
            } catch (Throwable e) {
                escaped.set(e);
            }
        }, "test-comm-loop");
        loop.start();
        MpiTransport sending = new MpiTransport(world.get(0), new Doorbells());
        Thread sender = CommLoop.start(sending, receiver);
        for (long runId = 1; runId <= 4; runId++) {
            sending.send(1, Tags.LAUNCH, Wire.ints(runId));
        }
        assertEquals("failed 1 tag 2: AssertionError", receiver.next());
        assertEquals("failed 2 tag 2: OutOfMemoryError", receiver.next());
        assertEquals("fault OutOfMemoryError", receiver.next());
        assertEquals("failed 3 tag 2: StackOverflowError", receiver.next());
        assertEquals("fault StackOverflowError", receiver.next());
        assertEquals("message 4", receiver.next(), "the loop goes on after each");
        receiver.idleCheckFails = new StackOverflowError("injected: outside any message");
        assertEquals("fault StackOverflowError", receiver.next(), "a fault between messages is reported too");
        sending.send(1, Tags.LAUNCH, Wire.ints(5));
        assertEquals("message 5", receiver.next(), "and the loop goes on");
        // A run that fills the heap can make the idle loop's own small allocations fail: nothing
        // was in hand, so the slot need not retire for it.
        receiver.idleCheckFails = new OutOfMemoryError("injected: Java heap space, while idle");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(PATIENCE_SECONDS);
        while (receiver.idleCheckFails != null && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertNull(receiver.idleCheckFails, "the idle loop met the error");
        sending.send(1, Tags.LAUNCH, Wire.ints(6));
        assertEquals("message 6", receiver.next(), "an out-of-memory error while idle is not reported as damage");
        sending.stop();
        receiving.stop();
        sender.join(PATIENCE_SECONDS * 1000);
        loop.join(PATIENCE_SECONDS * 1000);
        assertNull(escaped.get(), "nothing leaves the loop");
        assertTrue(receiving.serving());
    }

    /**
     * The in-process MPI, except that the sends numbered in {@code failing} (from 1) run out of
     * memory before MPI has them, as the native backend's request does in a heap a run left full.
     */
    private static final class OutOfMemoryOnSends extends ForwardingMpi {
        private final Set<Integer> failing;
        private int sends;

        OutOfMemoryOnSends(InProcessMpi mpi, Integer... failing) {
            super(mpi);
            this.failing = Set.of(failing);
        }

        @Override
        public Request iSend(ByteBuffer direct, int count, int dest, int tag) {
            if (failing.contains(++sends)) {
                throw new OutOfMemoryError("injected: Java heap space");
            }
            return mpi.iSend(direct, count, dest, tag);
        }
    }

    /** The next message at {@code mpi}'s rank, as "tag:bytes", or null if none comes. */
    private static String receive(InProcessMpi mpi) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
        for (Mpi.Envelope envelope; System.nanoTime() < deadline; Thread.sleep(1)) {
            if ((envelope = mpi.iProbe(Mpi.ANY_SOURCE, Mpi.ANY_TAG)) != null) {
                ByteBuffer message = ByteBuffer.allocateDirect(envelope.count());
                mpi.recv(message, envelope.count(), envelope.source(), envelope.tag());
                byte[] bytes = new byte[envelope.count()];
                message.get(bytes);
                return envelope.tag() + ":" + Arrays.toString(bytes);
            }
        }
        return null;
    }

    /**
     * A slot that ends a run which left the heap full sends DONE, then RETIRE, and stops: a send
     * that runs out of memory on its way to MPI is handed over again, not lost (the client would
     * get 137 where a new JVM gives the run's own status), and the stop waits for it.
     */
    @Test
    void aSendThatRunsOutOfMemoryIsHandedOverAgainNotLost() throws Exception {
        List<InProcessMpi> world = InProcessMpi.world(2);
        MpiTransport slot = new MpiTransport(new OutOfMemoryOnSends(world.get(0), 1, 2), new Doorbells());
        Receiver receiver = new Receiver();
        Thread loop = CommLoop.start(slot, receiver);
        slot.send(1, Tags.DONE, new byte[] {7});
        slot.send(1, Tags.RETIRE, new byte[] {8});
        slot.stop();
        loop.join(PATIENCE_SECONDS * 1000);
        assertFalse(loop.isAlive(), "the stop did not end the loop");
        assertEquals(Tags.DONE + ":[7]", receive(world.get(1)), "DONE was lost");
        assertEquals(Tags.RETIRE + ":[8]", receive(world.get(1)));
        assertNull(receive(world.get(1)), "a message was sent twice");
        assertEquals("fault OutOfMemoryError", receiver.next(), "a slot hears of it (and retires after its run)");
    }

    /** A message with a lent buffer whose second part runs out of memory: that part goes next round, the first not twice. */
    @Test
    void aLentPartThatRunsOutOfMemoryIsHandedOverAloneNextRound() throws Exception {
        List<InProcessMpi> world = InProcessMpi.world(2);
        MpiTransport sending = new MpiTransport(new OutOfMemoryOnSends(world.get(0), 2), new Doorbells());
        Thread loop = CommLoop.start(sending, new Receiver());
        BlockingQueue<ByteBuffer> given = new LinkedBlockingQueue<>();
        ByteBuffer lent = ByteBuffer.allocateDirect(2).put(new byte[] {5, 6}).flip();
        sending.send(1, Tags.SERVICE, ByteBuffer.wrap(new byte[] {4}), lent, given::add);
        assertEquals(Tags.SERVICE + ":[4]", receive(world.get(1)));
        assertEquals(Tags.SERVICE + ":[5, 6]", receive(world.get(1)));
        assertNull(receive(world.get(1)), "a part was sent twice");
        assertEquals(lent, given.poll(PATIENCE_SECONDS, TimeUnit.SECONDS), "the lent buffer was not given back");
        sending.stop();
        loop.join(PATIENCE_SECONDS * 1000);
    }
}
