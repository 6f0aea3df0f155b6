package org.jvmreuse.pool.mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A header and a lent buffer (the MPI shuffle's DATA header and mapped chunk) sent as one unit:
 * from several threads at once, every header is followed by its own body at the receiver, and
 * each lent buffer comes back once MPI is done with it and is never reused by the transport.
 */
class MpiTransportLentSendTest {
    private static final int THREADS = 8;
    private static final int PAIRS = 500;
    private static final int BODY = 64;

    @Test
    void pairsFromManyThreadsArriveWholeAndLentBuffersComeBack() throws Exception {
        List<InProcessMpi> world = InProcessMpi.world(2);
        MpiTransport sender = new MpiTransport(world.get(0), new Doorbells());
        MpiTransport receiver = new MpiTransport(world.get(1), new Doorbells());
        BlockingQueue<byte[]> received = new LinkedBlockingQueue<>();
        receiver.setServiceReceiver((source, message) -> {
            byte[] bytes = new byte[message.limit()];
            message.get(0, bytes);
            received.add(bytes);
            receiver.release(message);
        });
        Set<ByteBuffer> lent = Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));
        BlockingQueue<ByteBuffer> back = new LinkedBlockingQueue<>();
        Thread senderLoop = CommLoop.start(sender, new NoMessages(true));
        Thread receiverLoop = CommLoop.start(receiver, new NoMessages(true));
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            List<ByteBuffer> bodies = new ArrayList<>();
            for (int i = 0; i < PAIRS; i++) {
                ByteBuffer body = ByteBuffer.allocateDirect(BODY);
                for (int at = 0; at < BODY; at += Integer.BYTES) {
                    body.putInt(at, t * PAIRS + i);
                }
                bodies.add(body);
                lent.add(body);
            }
            // Sent as fast as the threads can, so that pairs queued as two would interleave.
            threads.add(new Thread(() -> {
                for (ByteBuffer body : bodies) {
                    sender.send(1, Tags.SERVICE, ByteBuffer.allocate(Integer.BYTES).putInt(0, body.getInt(0)), body, back::add);
                }
            }));
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join();
        }
        for (int n = 0; n < THREADS * PAIRS; n++) {
            byte[] header = received.poll(10, TimeUnit.SECONDS);
            byte[] body = received.poll(10, TimeUnit.SECONDS);
            assertNotNull(body, "pair " + n + " arrived");
            assertEquals(Integer.BYTES, header.length, "a header, not a body, starts pair " + n);
            assertEquals(BODY, body.length, "its body follows the header, nothing between them");
            assertEquals(ByteBuffer.wrap(header).getInt(), ByteBuffer.wrap(body).getInt(BODY - Integer.BYTES),
                    "the body that follows is the header's own");
        }
        Set<ByteBuffer> returned = Collections.newSetFromMap(new IdentityHashMap<>());
        for (int n = 0; n < THREADS * PAIRS; n++) {
            ByteBuffer buffer = back.poll(10, TimeUnit.SECONDS);
            assertNotNull(buffer, "lent buffer " + n + " came back");
            assertTrue(lent.contains(buffer), "only lent buffers come back");
            returned.add(buffer);
        }
        assertEquals(THREADS * PAIRS, returned.size(), "each lent buffer comes back once");
        for (int n = 0; n < 2 * THREADS * PAIRS; n++) {
            assertFalse(lent.contains(sender.buffer(BODY)), "a lent buffer is never reused by the transport");
        }
        sender.stop();
        receiver.stop();
        senderLoop.join(10_000);
        receiverLoop.join(10_000);
    }
}
