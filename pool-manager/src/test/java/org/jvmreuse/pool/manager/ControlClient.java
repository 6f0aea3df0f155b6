package org.jvmreuse.pool.manager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.io.EOFException;
import java.io.IOException;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.jvmreuse.pool.protocol.Frame;
import org.jvmreuse.pool.protocol.FrameChannel;
import org.jvmreuse.pool.protocol.ProtocolException;

/**
 * A client of the control socket, like the {@code jvmreuse} client: sends one request and
 * collects the replies on a reader thread, so a test can wait for each with a deadline.
 */
final class ControlClient implements AutoCloseable {
    /** Stands for the end of the connection among the replies. */
    static final String CLOSED = "<closed>";

    private final FrameChannel channel;
    private final BlockingQueue<Frame> replies = new LinkedBlockingQueue<>();
    private final Thread reader;

    private ControlClient(FrameChannel channel) {
        this.channel = channel;
        this.reader = new Thread(this::readReplies, "test-control-client");
        reader.setDaemon(true);
        reader.start();
    }

    static ControlClient send(Path socket, Frame request) throws IOException {
        FrameChannel channel = new FrameChannel(SocketChannel.open(UnixDomainSocketAddress.of(socket)));
        channel.write(request);
        return new ControlClient(channel);
    }

    /** A {@code run} request of {@code main} that waits up to {@code waitMillis} for a slot. */
    static Frame runRequest(String main, long waitMillis) {
        return runRequest(List.of(), main, waitMillis);
    }

    /** The same with JVM {@code options} before the class path. */
    static Frame runRequest(List<String> options, String main, long waitMillis) {
        Frame frame = new Frame("run");
        for (String word : options) {
            frame.add("java_arg", word);
        }
        for (String word : List.of("-cp", "/opt/app/app.jar", main, "first", "second")) {
            frame.add("java_arg", word);
        }
        return frame.add("cwd", "/tmp").add("wait_ms", waitMillis);
    }

    private void readReplies() {
        try {
            while (true) {
                replies.add(channel.read());
            }
        } catch (EOFException e) {
            replies.add(new Frame(CLOSED));
        } catch (IOException | ProtocolException e) {
            // closed by close(), or the test sees the missing reply
        }
    }

    /** Sends another frame on this connection (a {@code signal} during a run). */
    void write(Frame frame) throws IOException {
        channel.write(frame);
    }

    /** The next reply, failing if none comes within {@link Await#PATIENCE}. */
    Frame next() throws InterruptedException {
        Frame frame = replies.poll(Await.PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
        assertNotNull(frame, "no reply from the manager within " + Await.PATIENCE);
        return frame;
    }

    /** The next reply, which must be of {@code type}. */
    Frame expect(String type) throws InterruptedException {
        Frame frame = next();
        assertEquals(type, frame.type(), "reply " + frame);
        return frame;
    }

    /** Whether a reply has arrived that has not been read yet. */
    boolean hasReply() {
        return !replies.isEmpty();
    }

    @Override
    public void close() throws InterruptedException {
        channel.close();
        reader.join(Await.PATIENCE.toMillis());
    }
}
