package org.jvmreuse.pool.mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
 * A peer's doorbell can end before the loop has received what the peer sent (it sleeps on the
 * doorbells, and wakes on the end): the messages come first, so that the manager knows whether a
 * slot that died had reported its run STARTED.
 */
class MpiTransportPeerLostTest {
    private static final class Events implements MpiTransport.Handler {
        final BlockingQueue<String> events = new LinkedBlockingQueue<>();

        @Override
        public void onMessage(int source, int tag, byte[] payload) {
            events.add("message " + tag + " from " + source);
        }

        @Override
        public void onPeerLost(int rank) {
            events.add("lost " + rank);
        }

        @Override
        public boolean everyPeerRings() {
            return true;
        }
    }

    @Test
    void whatAPeerSentBeforeItEndedIsHandledBeforeItsEnd() throws Exception {
        List<InProcessMpi> world = InProcessMpi.world(2);
        Doorbells doorbells = new Doorbells();
        MpiTransport transport = new MpiTransport(world.get(0), doorbells);
        Events handler = new Events();
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            SocketChannel peerSide = SocketChannel.open(server.getLocalAddress());
            doorbells.attach(1, server.accept());
            Thread loop = CommLoop.start(transport, handler);
            Thread.sleep(200); // the loop sleeps on the doorbells now
            world.get(1).iSend(ByteBuffer.allocateDirect(8), 8, 0, Tags.STARTED);
            peerSide.close(); // and the process ends before the loop has looked for the message
            assertEquals("message " + Tags.STARTED + " from 1", handler.events.poll(5, TimeUnit.SECONDS));
            assertEquals("lost 1", handler.events.poll(5, TimeUnit.SECONDS));
            transport.stop();
            loop.join(10_000);
        } finally {
            doorbells.close();
        }
    }
}
