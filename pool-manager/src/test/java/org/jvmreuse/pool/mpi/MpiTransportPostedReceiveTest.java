package org.jvmreuse.pool.mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A large message from a peer that cannot ring (one on another host) is received with a posted
 * receive that completes while the loop goes on, never with a blocking receive that would spin in
 * MPI for the whole transfer; the messages after it from the same rank wait behind it, so a DATA
 * header's bytes still come right after it, and one from another rank is not held up.
 */
class MpiTransportPostedReceiveTest {
    private static final int LARGE = 256 * 1024;

    /** The receiving rank's MPI: every posted receive completes only after 200 tests (a slow link); counts blocking receives. */
    private static final class SlowLink extends ForwardingMpi {
        final AtomicInteger blocking = new AtomicInteger();
        final AtomicInteger posted = new AtomicInteger();

        SlowLink(InProcessMpi mpi) {
            super(mpi);
        }

        @Override
        public Request iRecv(ByteBuffer b, int n, int source, int tag) {
            posted.incrementAndGet();
            Request inner = mpi.iRecv(b, n, source, tag);
            AtomicInteger tests = new AtomicInteger();
            return () -> tests.incrementAndGet() > 200 && inner.test();
        }

        @Override
        public void recv(ByteBuffer b, int n, int source, int tag) {
            blocking.incrementAndGet();
            mpi.recv(b, n, source, tag);
        }
    }

    private static ByteBuffer filled(int size, int value) {
        ByteBuffer b = ByteBuffer.allocateDirect(size);
        for (int at = 0; at + Integer.BYTES <= size; at += Integer.BYTES) {
            b.putInt(at, value);
        }
        return b;
    }

    @Test
    void largeMessagesFromAnotherHostArePostedAndTheirRanksLaterMessagesWaitBehindThem() throws Exception {
        List<InProcessMpi> world = InProcessMpi.world(3);
        SlowLink link = new SlowLink(world.get(2));
        MpiTransport far = new MpiTransport(world.get(0), new Doorbells());
        MpiTransport other = new MpiTransport(world.get(1), new Doorbells());
        MpiTransport receiver = new MpiTransport(link, new Doorbells()); // no doorbells: every peer is on another host
        BlockingQueue<String> received = new LinkedBlockingQueue<>();
        receiver.setServiceReceiver((source, message) -> {
            received.add(source + ":" + message.limit() + ":" + message.getInt(0));
            receiver.release(message);
        });
        List<Thread> loops = List.of(CommLoop.start(far, new NoMessages(false)), CommLoop.start(other, new NoMessages(false)),
                CommLoop.start(receiver, new NoMessages(false)));
        try {
            // rank 0: a large message, then a small one (a header and its bytes, the other way round)
            far.send(2, Tags.SERVICE, filled(LARGE, 1));
            far.send(2, Tags.SERVICE, filled(16, 2));
            assertEquals("0:" + LARGE + ":1", received.poll(10, TimeUnit.SECONDS), "the large message first");
            assertEquals("0:16:2", received.poll(10, TimeUnit.SECONDS), "then the one sent after it");
            assertEquals(0, link.blocking.get(), "a message from rank 0 was taken with a blocking receive");
            assertEquals(2, link.posted.get(), "both of rank 0's messages were posted");

            // A small message from a rank with nothing posted is handed on at once, while rank 0's next large one is on the wire.
            far.send(2, Tags.SERVICE, filled(LARGE, 3));
            long posted = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (link.posted.get() < 3 && System.nanoTime() < posted) {
                Thread.sleep(1);
            }
            other.send(2, Tags.SERVICE, filled(16, 4));
            assertEquals("1:16:4", received.poll(10, TimeUnit.SECONDS), "rank 1's message waited for rank 0's");
            assertEquals("0:" + LARGE + ":3", received.poll(10, TimeUnit.SECONDS));
            assertEquals(1, link.blocking.get(), "rank 1's small message is received at once");
        } finally {
            far.stop();
            other.stop();
            receiver.stop();
            for (Thread t : loops) {
                t.join(10_000);
                assertTrue(!t.isAlive(), t.getName() + " did not end");
            }
        }
    }
}
