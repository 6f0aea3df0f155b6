package org.jvmreuse.pool.manager;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.jvmreuse.pool.PoolLog;
import org.jvmreuse.pool.PoolOptions;
import org.jvmreuse.pool.PoolThreads;

/**
 * The manager's Unix domain control socket. It lives in a directory only the pool's owner can
 * enter, and each connection's peer credentials are checked again in {@link ClientSession}.
 */
final class ControlServer implements AutoCloseable {
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rwx------");

    private final Path socket;
    private final PoolManager manager;
    /** Connection threads are reused: creating one per request costs more than the rest of a status call. */
    private final ExecutorService sessions = Executors.newCachedThreadPool(r -> PoolThreads.create("control-client", r));
    private ServerSocketChannel server;

    ControlServer(Path socket, PoolManager manager) {
        this.socket = socket;
        this.manager = manager;
    }

    void start() throws IOException {
        preparePrivateDirectory(socket.getParent());
        removeStaleSocket();
        server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(socket));
        Files.setPosixFilePermissions(socket, PosixFilePermissions.fromString("rw-------"));
        PoolThreads.start("control-accept", this::acceptLoop);
    }

    /** Creates the directory owner-only, or checks that an existing one is the owner's and private. */
    static void preparePrivateDirectory(Path dir) throws IOException {
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            Files.createDirectories(dir);
            Files.setPosixFilePermissions(dir, OWNER_ONLY);
            return;
        }
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            throw new IOException("control directory " + dir + " exists but is not a directory");
        }
        int owner = (Integer) Files.getAttribute(dir, "unix:uid", LinkOption.NOFOLLOW_LINKS);
        if (owner != PoolOptions.currentUid()) {
            throw new IOException("control directory " + dir + " belongs to uid " + owner
                    + ", not to this pool's user (uid " + PoolOptions.currentUid() + "); choose another --socket");
        }
        Set<PosixFilePermission> perms = Files.getPosixFilePermissions(dir, LinkOption.NOFOLLOW_LINKS);
        if (!OWNER_ONLY.containsAll(perms)) {
            throw new IOException("control directory " + dir + " has mode " + PosixFilePermissions.toString(perms)
                    + "; it must be private to its owner (chmod 700 " + dir + ")");
        }
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
        while (server.isOpen()) {
            try {
                SocketChannel channel = server.accept();
                sessions.execute(new ClientSession(channel, manager)::serve);
            } catch (IOException e) {
                if (server.isOpen()) {
                    PoolLog.get().error("accepting a control connection failed", e);
                }
            }
        }
    }

    @Override
    public void close() throws IOException {
        if (server != null) {
            server.close();
        }
        sessions.shutdownNow();
        Files.deleteIfExists(socket);
    }
}
