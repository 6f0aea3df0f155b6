package org.jvmreuse.it;

import java.io.DataInputStream;
import java.io.IOException;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Speaks the control protocol byte by byte, to send what the real client never would. */
final class RawClient implements AutoCloseable {
    private final SocketChannel channel;
    private final DataInputStream in;

    RawClient(Path socket) throws IOException {
        channel = SocketChannel.open(UnixDomainSocketAddress.of(socket));
        in = new DataInputStream(Channels.newInputStream(channel));
    }

    static byte[] payload(String... strings) {
        StringBuilder text = new StringBuilder();
        for (String s : strings) {
            text.append(s).append('\0');
        }
        return text.toString().getBytes(StandardCharsets.UTF_8);
    }

    void sendRaw(int declaredLength, byte[] payload) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(4 + payload.length).putInt(declaredLength).put(payload).flip();
        while (buffer.hasRemaining()) {
            channel.write(buffer);
        }
    }

    void send(String... strings) throws IOException {
        byte[] payload = payload(strings);
        sendRaw(payload.length, payload);
    }

    /** The next reply as its strings (type first). */
    List<String> read() throws IOException {
        byte[] payload = new byte[in.readInt()];
        in.readFully(payload);
        List<String> strings = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < payload.length; i++) {
            if (payload[i] == 0) {
                strings.add(new String(payload, start, i - start, StandardCharsets.UTF_8));
                start = i + 1;
            }
        }
        return strings;
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
