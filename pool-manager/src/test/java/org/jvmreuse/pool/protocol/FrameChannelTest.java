package org.jvmreuse.pool.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** A frame's header is a claim; memory follows the bytes that arrive. */
class FrameChannelTest {
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    @Test
    void aLargeHeaderWithoutItsPayloadAllocatesLittle() throws Exception {
        SocketChannel[] pair = pair();
        try (FrameChannel reader = new FrameChannel(pair[0]); SocketChannel writer = pair[1]) {
            writer.write(ByteBuffer.allocate(4 + 10).putInt(ControlWire.MAX_PAYLOAD).put(new byte[10]).flip());
            writer.close();
            long before = THREADS.getCurrentThreadAllocatedBytes();
            assertThrows(ProtocolException.class, reader::read);
            long allocated = THREADS.getCurrentThreadAllocatedBytes() - before;
            assertTrue(allocated < 64 * 1024, "reading 14 bytes allocated " + allocated + " bytes");
        }
    }

    @Test
    void aPayloadLargerThanTheFirstChunkArrivesWhole() throws Exception {
        SocketChannel[] pair = pair();
        try (FrameChannel reader = new FrameChannel(pair[0]); FrameChannel writer = new FrameChannel(pair[1])) {
            String big = "x".repeat(300_000);
            Thread sender = new Thread(() -> {
                try {
                    writer.write(new Frame("run").add("env", big));
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            sender.start();
            assertEquals(big, reader.read().get("env"));
            sender.join();
        }
    }

    /** A connected pair: the accepted end, then the client end. */
    private static SocketChannel[] pair() throws IOException {
        Path dir = Files.createTempDirectory("jvmreuse-frames");
        UnixDomainSocketAddress address = UnixDomainSocketAddress.of(dir.resolve("s"));
        try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            server.bind(address);
            SocketChannel client = SocketChannel.open(address);
            SocketChannel accepted = server.accept();
            return new SocketChannel[] {accepted, client};
        } finally {
            Files.deleteIfExists(dir.resolve("s"));
            Files.delete(dir);
        }
    }
}
