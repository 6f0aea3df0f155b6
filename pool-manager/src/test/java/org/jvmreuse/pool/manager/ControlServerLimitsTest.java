package org.jvmreuse.pool.manager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.jvmreuse.pool.common.PoolThreads;
import org.jvmreuse.pool.protocol.Frame;
import org.jvmreuse.pool.protocol.FrameChannel;

/**
 * No client can make another wait: the control server's session bound, request deadline and
 * accept loop, on a second control socket of a real manager with test-sized limits.
 */
@Timeout(60)
class ControlServerLimitsTest extends ManagerTestBase {
    private static final int MAX_SESSIONS = 64;
    private static final long REQUEST_MILLIS = 1_000;
    private static final ThreadFactory SESSION_THREADS = r -> PoolThreads.create("control-client", r);

    private final List<ControlServer> servers = new ArrayList<>();
    private final List<SocketChannel> raw = new ArrayList<>();
    /** Where the control sockets go; removed after each test. */
    @TempDir
    Path dir;

    @AfterEach
    void closeServers() throws IOException {
        for (SocketChannel channel : raw) {
            channel.close();
        }
        for (ControlServer server : servers) {
            server.close();
        }
    }

    private Path serve(ThreadFactory threads) throws IOException {
        Path socket = Files.createTempDirectory(dir, "limits").resolve("control/pool.sock");
        ControlServer server = new ControlServer(socket, harness.manager, MAX_SESSIONS, REQUEST_MILLIS, threads);
        servers.add(server);
        server.start();
        return socket;
    }

    private SocketChannel connect(Path socket) throws IOException {
        SocketChannel channel = SocketChannel.open(UnixDomainSocketAddress.of(socket));
        raw.add(channel);
        return channel;
    }

    private static long sessionThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals("control-client")).count();
    }

    private static long millisSince(long startNanos) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
    }

    @Test
    void thousandIdleConnectionsNeitherHoldLaterClientsNorThreads() throws Exception {
        harness = ManagerHarness.start(1);
        Path socket = serve(SESSION_THREADS);
        long threadsBefore = sessionThreads();
        List<FrameChannel> idle = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            idle.add(new FrameChannel(connect(socket)));
        }
        long lateAt = System.nanoTime();
        SocketChannel late = connect(socket);
        try {
            new FrameChannel(late).write(ControlClient.runRequest("Late", LONG_WAIT));
        } catch (IOException refusedFirst) {
            // the answer may come (and the connection close) before the request is written
        }
        Frame answer = new FrameChannel(late).read();
        assertEquals("fallback", answer.type());
        assertTrue(answer.get("reason").contains("serving " + MAX_SESSIONS + " connections already"), answer::toString);
        assertTrue(millisSince(lateAt) < REQUEST_MILLIS, "the late client waited " + millisSince(lateAt) + " ms for its answer");
        assertTrue(sessionThreads() - threadsBefore <= MAX_SESSIONS, sessionThreads() + " session threads");

        // Every idle connection is answered (at once, or at its deadline) and closed.
        for (FrameChannel channel : idle) {
            assertEquals("fallback", channel.read().type());
        }
        try (ControlClient served = ControlClient.send(socket, ControlClient.runRequest("Served", LONG_WAIT))) {
            startOn(harness.slot(0), served, "Served");
        }
    }

    @Test
    void aRequestMustBeCompleteWithinItsDeadlineHoweverItTrickles() throws Exception {
        harness = ManagerHarness.start(1);
        Path socket = serve(SESSION_THREADS);
        ScheduledExecutorService trickle = Executors.newSingleThreadScheduledExecutor();
        try {
            SocketChannel stalled = connect(socket);
            stalled.write(ByteBuffer.allocate(24).putInt(200).put(new byte[20]).flip());
            SocketChannel slow = connect(socket);
            slow.write(ByteBuffer.allocate(4).putInt(200).flip());
            // one byte every 20 ms: the payload would take 4 s, four times the deadline
            trickle.scheduleAtFixedRate(() -> {
                try {
                    slow.write(ByteBuffer.wrap(new byte[] {'x'}));
                } catch (IOException closedByTheServer) {
                    throw new IllegalStateException(closedByTheServer);
                }
            }, 0, 20, TimeUnit.MILLISECONDS);
            long sentAt = System.nanoTime();
            for (SocketChannel channel : List.of(stalled, slow)) {
                Frame answer = new FrameChannel(channel).read();
                assertEquals("fallback", answer.type());
                assertEquals("the request did not arrive within " + REQUEST_MILLIS + " ms", answer.get("reason"));
            }
            long waited = millisSince(sentAt);
            assertTrue(waited >= REQUEST_MILLIS - 50 && waited < 3 * REQUEST_MILLIS, "answered after " + waited + " ms");
        } finally {
            trickle.shutdownNow();
        }
        harness.status(); // the manager serves on
    }

    @Test
    void anOversizedFrameHeaderIsRefusedAtOnce() throws Exception {
        harness = ManagerHarness.start(1);
        Path socket = serve(SESSION_THREADS);
        SocketChannel channel = connect(socket);
        channel.write(ByteBuffer.allocate(4).putInt(Integer.MAX_VALUE).flip());
        Frame answer = new FrameChannel(channel).read();
        assertEquals("error", answer.type());
        assertTrue(answer.get("message").contains("outside 1..1048576 bytes"), answer::toString);
    }

    @Test
    void theAcceptLoopSurvivesAConnectionThreadThatCannotStart() throws Exception {
        harness = ManagerHarness.start(1);
        AtomicBoolean failedOnce = new AtomicBoolean();
        // What a process at its thread limit gets from Thread.start()
        ThreadFactory atTheLimitOnce = r -> failedOnce.compareAndSet(false, true)
                ? new Thread(r) {
                    @Override
                    public synchronized void start() {
                        throw new OutOfMemoryError("unable to create native thread: possibly out of memory or process/resource limits reached");
                    }
                }
                : SESSION_THREADS.newThread(r);
        Path socket = serve(atTheLimitOnce);
        // refused before it could send anything, as the jvmreuse client reads its answer all the same
        Frame answer = new FrameChannel(connect(socket)).read();
        assertEquals("fallback", answer.type());
        assertTrue(answer.get("reason").contains("could not start a connection thread"), answer::toString);
        try (ControlClient second = ControlClient.send(socket, new Frame("status"))) {
            assertTrue(second.expect("status").getAll("line").stream().anyMatch(l -> l.startsWith("slots: 1")));
        }
        assertTrue(harness.log().contains("accepting a control connection failed; retrying"), harness.log());
    }
}
