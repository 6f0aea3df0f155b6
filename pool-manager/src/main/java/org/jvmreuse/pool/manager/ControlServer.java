package org.jvmreuse.pool.manager;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.jvmreuse.pool.common.PoolLog;
import org.jvmreuse.pool.common.PoolThreads;
import org.jvmreuse.pool.config.PrivateDirectory;
import org.jvmreuse.pool.protocol.Frame;
import org.jvmreuse.pool.protocol.FrameChannel;

/**
 * The manager's Unix domain control socket. It lives in a directory only the pool's owner can
 * enter ({@link PrivateDirectory}), and each connection's peer credentials are checked again in
 * {@link ClientSession}. No client can make another wait: at most {@code maxSessions}
 * connections are served at once (a connection beyond that gets {@code fallback} at once), a
 * connection must complete its request within {@code requestMillis}, and the accept loop
 * outlives any failure; should it end anyway, the socket is removed, so clients fall back at
 * once instead of queueing in a backlog nobody accepts.
 */
final class ControlServer implements AutoCloseable {
    static final int DEFAULT_MAX_SESSIONS = 256;
    static final long DEFAULT_REQUEST_MILLIS = 10_000;
    /** Pause after a failed accept (fd limit reached, say), so the loop neither spins nor floods the log. */
    private static final long ACCEPT_RETRY_MILLIS = 100;

    private final Path socket;
    private final PoolManager manager;
    private final long requestMillis;
    /** Connection threads are reused: creating one per request costs more than the rest of a status call. */
    private final ThreadPoolExecutor sessions;
    private final ScheduledThreadPoolExecutor deadlines = new ScheduledThreadPoolExecutor(1,
            r -> PoolThreads.create("control-deadline", r));
    private volatile boolean closing;
    private ServerSocketChannel server;

    ControlServer(Path socket, PoolManager manager) {
        this(socket, manager, DEFAULT_MAX_SESSIONS, DEFAULT_REQUEST_MILLIS, r -> PoolThreads.create("control-client", r));
    }

    ControlServer(Path socket, PoolManager manager, int maxSessions, long requestMillis, ThreadFactory threads) {
        this.socket = socket;
        this.manager = manager;
        this.requestMillis = requestMillis;
        this.sessions = new ThreadPoolExecutor(0, maxSessions, 60, TimeUnit.SECONDS, new SynchronousQueue<>(), threads);
        deadlines.setRemoveOnCancelPolicy(true); // a met deadline leaves nothing queued for its 10 s
    }

    void start() throws IOException {
        PrivateDirectory.prepare(socket.getParent());
        removeStaleSocket();
        server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(socket));
        Files.setPosixFilePermissions(socket, PosixFilePermissions.fromString("rw-------"));
        PoolThreads.start("control-accept", this::acceptLoop);
    }

    private void removeStaleSocket() throws IOException {
        if (!Files.exists(socket, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (SocketChannel probe = SocketChannel.open(UnixDomainSocketAddress.of(socket))) {
            throw new IOException("another pool is already listening on " + socket);
        } catch (IOException refused) {
            if (refused.getMessage() != null && refused.getMessage().startsWith("another pool")) {
                throw refused;
            }
            Files.delete(socket);
        }
    }

    private void acceptLoop() {
        try {
            while (server.isOpen()) {
                try {
                    dispatch(server.accept());
                } catch (Throwable e) {
                    if (!server.isOpen()) {
                        break;
                    }
                    PoolLog.get().error("accepting a control connection failed; retrying", e);
                    Thread.sleep(ACCEPT_RETRY_MILLIS);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            if (!closing) {
                PoolLog.get().error("the control socket stopped accepting; removing it so that clients fall back at once", null);
                removeSocketQuietly();
            }
        }
    }

    /** Hands the connection to a session thread, or answers {@code fallback} when none may start. */
    private void dispatch(SocketChannel channel) {
        ClientSession session = new ClientSession(channel, manager);
        try {
            sessions.execute(() -> session.serve(deadlines, requestMillis));
        } catch (RejectedExecutionException full) {
            refuse(channel, "the pool is serving " + sessions.getMaximumPoolSize() + " connections already");
        } catch (RuntimeException | Error e) {
            refuse(channel, "the pool could not start a connection thread: " + e);
            throw e;
        }
    }

    /** A fresh connection's socket buffer is empty, so this short write cannot block. */
    private static void refuse(SocketChannel channel, String reason) {
        try (FrameChannel frames = new FrameChannel(channel)) {
            frames.write(new Frame("fallback").add("reason", reason));
        } catch (IOException | RuntimeException ignored) {
            // the client sees the connection end before `started`, and falls back all the same
        }
    }

    private void removeSocketQuietly() {
        try {
            Files.deleteIfExists(socket);
        } catch (IOException | RuntimeException e) {
            PoolLog.get().warn("could not remove the control socket " + socket + ": " + e);
        }
    }

    @Override
    public void close() throws IOException {
        closing = true;
        if (server != null) {
            server.close();
        }
        sessions.shutdownNow();
        deadlines.shutdownNow();
        Files.deleteIfExists(socket);
    }
}
