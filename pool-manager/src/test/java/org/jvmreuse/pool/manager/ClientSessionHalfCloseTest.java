package org.jvmreuse.pool.manager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import org.junit.jupiter.api.Test;
import org.jvmreuse.pool.protocol.Frame;
import org.jvmreuse.pool.protocol.FrameChannel;

/**
 * A client that half-closes in the middle of its request's frame can still read: it gets an
 * {@code error} naming the problem before the manager closes (docs/protocol.md, "Framing").
 */
class ClientSessionHalfCloseTest extends ManagerTestBase {
    @Test
    void aRequestCutOffInItsHeaderIsAnsweredWithAnError() throws Exception {
        harness = ManagerHarness.start(1);
        assertAnsweredWithError(ByteBuffer.wrap(new byte[] {0, 0}));
    }

    @Test
    void aRequestCutOffInItsPayloadIsAnsweredWithAnError() throws Exception {
        harness = ManagerHarness.start(1);
        assertAnsweredWithError(ByteBuffer.allocate(4 + 3).putInt(100).put("run".getBytes()).flip());
    }

    private void assertAnsweredWithError(ByteBuffer partial) throws Exception {
        try (SocketChannel channel = SocketChannel.open(UnixDomainSocketAddress.of(harness.socket()))) {
            channel.write(partial);
            channel.shutdownOutput();
            Frame reply = new FrameChannel(channel).read();
            assertEquals("error", reply.type(), reply.toString());
            assertTrue(reply.get("message").contains("middle of a frame"), reply.toString());
        }
        harness.assertManagerHealthy();
    }
}
