package org.jvmreuse.pool.protocol;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/** Reads and writes length-prefixed frames on a blocking socket channel. */
public final class FrameChannel implements AutoCloseable {
    private static final int FIRST_CHUNK = 8 * 1024;
    private final SocketChannel channel;
    private final Object writeLock = new Object();

    public FrameChannel(SocketChannel channel) {
        this.channel = channel;
    }

    public SocketChannel channel() {
        return channel;
    }

    /**
     * Reads one frame; {@link EOFException} when the peer closed the connection between frames,
     * {@link ProtocolException} when it ended (or half-closed) in the middle of one: that peer
     * may still read, and is owed a reply.
     */
    public Frame read() throws IOException, ProtocolException {
        ByteBuffer header = ByteBuffer.allocate(ControlWire.HEADER_LEN);
        if (!fill(header, true)) {
            throw new EOFException("peer closed the connection");
        }
        int length = header.flip().getInt();
        if (length <= 0 || length > ControlWire.MAX_PAYLOAD) {
            throw new ProtocolException("frame length " + Integer.toUnsignedString(length)
                    + " is outside 1.." + ControlWire.MAX_PAYLOAD + " bytes");
        }
        return Frame.decode(readPayload(length));
    }

    /**
     * The header's length is only a claim: the buffer grows with the bytes that actually
     * arrive (doubling from {@link #FIRST_CHUNK}), so connections that send a large length
     * and then little or nothing hold little memory.
     */
    private byte[] readPayload(int length) throws IOException, ProtocolException {
        ByteBuffer payload = ByteBuffer.allocate(Math.min(length, FIRST_CHUNK));
        while (true) {
            fill(payload, false);
            if (payload.capacity() == length) {
                return payload.array();
            }
            ByteBuffer larger = ByteBuffer.allocate((int) Math.min(length, 2L * payload.capacity()));
            payload = larger.put(payload.flip());
        }
    }

    private boolean fill(ByteBuffer buffer, boolean eofAllowedAtStart) throws IOException, ProtocolException {
        while (buffer.hasRemaining()) {
            if (channel.read(buffer) < 0) {
                if (eofAllowedAtStart && buffer.position() == 0) {
                    return false;
                }
                throw new ProtocolException("the connection ended in the middle of a frame");
            }
        }
        return true;
    }

    public void write(Frame frame) throws IOException {
        byte[] payload = frame.encode();
        ByteBuffer buffer = ByteBuffer.allocate(ControlWire.HEADER_LEN + payload.length).putInt(payload.length).put(payload).flip();
        synchronized (writeLock) {
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
        }
    }

    @Override
    public void close() {
        try {
            channel.close();
        } catch (IOException ignored) {
            // nothing left to do with a connection that cannot even close
        }
    }
}
