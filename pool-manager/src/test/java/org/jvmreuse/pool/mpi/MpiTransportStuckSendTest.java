package org.jvmreuse.pool.mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A send to a peer that has died never completes (MPI cannot cancel it): the loop still hears
 * of the death, drops the peer's sends and goes idle, and a stop does not wait for them forever.
 */
class MpiTransportStuckSendTest {
    private static final long STOP_DRAIN_MILLIS = 300;

    /** The in-process MPI, except that sends to rank 1 are never received (a large send to a dead rank). */
    private static final class StuckToRank1 extends ForwardingMpi {

        StuckToRank1(InProcessMpi mpi) {
            super(mpi);
        }

        @Override
        public Request iSend(ByteBuffer direct, int count, int dest, int tag) {
            return dest == 1 ? () -> false : mpi.iSend(direct, count, dest, tag);
        }
    }

    private static final class Lost implements MpiTransport.Handler {
        final BlockingQueue<Integer> lost = new LinkedBlockingQueue<>();

        @Override
        public void onMessage(int source, int tag, byte[] payload) {
        }

        @Override
        public void onPeerLost(int rank) {
            lost.add(rank);
        }

        @Override
        public boolean everyPeerRings() {
            return true;
        }
    }

    @Test
    void aStopGivesUpOnSendsThatNeverCompleteAfterItsDeadline() throws Exception {
        List<InProcessMpi> world = InProcessMpi.world(2);
        MpiTransport transport = new MpiTransport(new StuckToRank1(world.get(0)), new Doorbells(), STOP_DRAIN_MILLIS);
        Thread thread = CommLoop.start(transport, new Lost());
        transport.send(1, Tags.SERVICE, new byte[1 << 20]);
        Thread.sleep(100);
        long stopped = System.nanoTime();
        transport.stop();
        thread.join(10_000);
        assertFalse(thread.isAlive(), "the loop still waits for a send that will never complete");
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stopped);
        assertTrue(millis >= STOP_DRAIN_MILLIS - 50, "it gave the send its time first: " + millis + " ms");
    }

    @Test
    void aPeerThatDiesWithASendInFlightIsSeenAndItsSendsDropped() throws Exception {
        List<InProcessMpi> world = InProcessMpi.world(2);
        Doorbells doorbells = new Doorbells();
        MpiTransport transport = new MpiTransport(new StuckToRank1(world.get(0)), doorbells, 60_000);
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            SocketChannel peerSide = SocketChannel.open(server.getLocalAddress());
            doorbells.attach(1, server.accept());
            Lost handler = new Lost();
            BlockingQueue<Integer> serviceLost = new LinkedBlockingQueue<>();
            transport.setServiceLost(serviceLost::add);
            Thread thread = CommLoop.start(transport, handler);
            transport.send(1, Tags.SERVICE, new byte[1 << 20]);
            Thread.sleep(100);
            peerSide.close(); // rank 1's process ends
            assertEquals(1, handler.lost.poll(5, TimeUnit.SECONDS), "the death was not seen while a send was in flight");
            assertEquals(1, serviceLost.poll(5, TimeUnit.SECONDS), "the service was not told (it gives back what it lent)");
            long stopped = System.nanoTime();
            transport.stop();
            thread.join(10_000);
            assertFalse(thread.isAlive());
            assertTrue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stopped) < 5_000,
                    "the dead peer's send was dropped, so the stop need not wait out its deadline");
        }
    }

    /** Every queue has a bound: service messages to a rank that does not receive are refused past theirs. */
    @Test
    void serviceMessagesToAPeerThatDoesNotReceiveAreBoundedWhileOthersStillGo() throws Exception {
        List<InProcessMpi> world = InProcessMpi.world(3);
        Doorbells doorbells = new Doorbells();
        MpiTransport transport = new MpiTransport(new StuckToRank1(world.get(0)), doorbells, STOP_DRAIN_MILLIS);
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            SocketChannel peerSide = SocketChannel.open(server.getLocalAddress());
            doorbells.attach(1, server.accept());
            Lost handler = new Lost();
            Thread thread = CommLoop.start(transport, handler);
            for (int i = 0; i < MpiTransport.MAX_SERVICE_PENDING; i++) {
                transport.send(1, Tags.SERVICE, new byte[8]);
            }
            IllegalStateException refused = assertThrows(IllegalStateException.class,
                    () -> transport.send(1, Tags.SERVICE, new byte[8]));
            assertTrue(refused.getMessage().contains("to rank 1"), refused.getMessage());
            for (int i = 0; i < 2 * MpiTransport.MAX_SERVICE_PENDING; i++) {
                sendOnceThereIsRoom(transport, 2); // each sent message gives its place back
            }
            transport.send(1, Tags.DONE, new byte[8]); // the pool's own messages are never refused
            assertTrue(awaitMessage(world.get(2)), "a send to a peer that receives must still go");
            peerSide.close(); // rank 1 ends: its sends are dropped, and their places in the bound with them
            assertEquals(1, handler.lost.poll(5, TimeUnit.SECONDS));
            transport.send(1, Tags.SERVICE, new byte[8]);
            transport.stop();
            thread.join(10_000);
            assertFalse(thread.isAlive());
        } finally {
            doorbells.close();
        }
    }

    /** What a slot does with STARTED: the program must not run before MPI has the message. */
    @Test
    void sendAndAwaitReturnsOnceMpiHasTheMessageOrItsPeerHasEnded() throws Exception {
        List<InProcessMpi> world = InProcessMpi.world(3);
        Doorbells doorbells = new Doorbells();
        MpiTransport transport = new MpiTransport(new StuckToRank1(world.get(0)), doorbells, STOP_DRAIN_MILLIS);
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            SocketChannel peerSide = SocketChannel.open(server.getLocalAddress());
            doorbells.attach(1, server.accept());
            Thread thread = CommLoop.start(transport, new Lost());
            transport.sendAndAwait(2, Tags.STARTED, new byte[8]);
            assertTrue(world.get(2).iProbe(0, Tags.STARTED) != null, "returned before the message was sent");
            Thread waiter = new Thread(() -> {
                try {
                    transport.sendAndAwait(1, Tags.STARTED, new byte[8]);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            waiter.start();
            waiter.join(300);
            assertTrue(waiter.isAlive(), "returned while MPI still held the message");
            peerSide.close();
            waiter.join(3_000);
            assertFalse(waiter.isAlive(), "still waiting after the peer ended");
            transport.stop();
            thread.join(10_000);
        } finally {
            doorbells.close();
        }
    }

    private static void sendOnceThereIsRoom(MpiTransport transport, int dest) throws InterruptedException {
        for (int tries = 0; ; tries++) {
            try {
                transport.send(dest, Tags.SERVICE, new byte[8]);
                return;
            } catch (IllegalStateException full) {
                if (tries == 1000) {
                    throw full;
                }
                Thread.sleep(5);
            }
        }
    }

    private static boolean awaitMessage(InProcessMpi mpi) throws InterruptedException {
        for (int i = 0; i < 1000; i++) {
            if (mpi.iProbe(0, Tags.SERVICE) != null) {
                return true;
            }
            Thread.sleep(5);
        }
        return false;
    }
}
