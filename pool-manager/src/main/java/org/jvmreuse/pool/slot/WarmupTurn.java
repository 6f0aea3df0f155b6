package org.jvmreuse.pool.slot;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.jvmreuse.pool.common.PoolLog;
import org.jvmreuse.pool.config.PrivateDirectory;
import org.jvmreuse.pool.os.CurrentUser;

/**
 * A turn to warm up. At most {@code parallel} JVMs of this user warm up at once on a host (one of
 * that many lock files in a private directory of the host's temporary directory), so that a
 * cluster that serves while its slots warm up keeps cores for its daemons and first jobs, and
 * slots come up one after another instead of all at the end. The lock goes with the process, so
 * a slot that dies while warming up frees its turn.
 */
final class WarmupTurn implements AutoCloseable {
    private static final long POLL_MILLIS = 50;

    private final FileChannel channel;

    private WarmupTurn(FileChannel channel) {
        this.channel = channel;
    }

    /** Waits for a turn among {@code parallel} (0: no limit, no wait) on this host. */
    static WarmupTurn take(int parallel) throws InterruptedException {
        return take(parallel, Path.of(System.getProperty("java.io.tmpdir"), "jvmreuse-warmup-" + CurrentUser.uid()));
    }

    /** Waits for a turn among {@code parallel} whose lock files are in {@code dir}. */
    static WarmupTurn take(int parallel, Path dir) throws InterruptedException {
        if (parallel <= 0) {
            return new WarmupTurn(null);
        }
        try {
            // private: another user could otherwise hold our turns
            PrivateDirectory.prepare(dir, "warm-up turn directory", "");
            long since = System.nanoTime();
            while (true) {
                for (int i = 0; i < parallel; i++) {
                    FileChannel channel = FileChannel.open(dir.resolve("turn-" + i + ".lock"), StandardOpenOption.CREATE,
                            StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
                    FileLock lock = tryLock(channel);
                    if (lock != null) {
                        if (System.nanoTime() - since > 1_000_000_000L) {
                            PoolLog.get().info(String.format("waited %.1f s for a warm-up turn (%d at once on this host)",
                                    (System.nanoTime() - since) / 1e9, parallel));
                        }
                        return new WarmupTurn(channel);
                    }
                    channel.close();
                }
                Thread.sleep(POLL_MILLIS);
            }
        } catch (IOException e) {
            PoolLog.get().warn("warming up without waiting for a turn: " + e.getMessage());
            return new WarmupTurn(null);
        }
    }

    /** The lock, or null while another process (or this one, for another turn) holds it. */
    private static FileLock tryLock(FileChannel channel) throws IOException {
        try {
            return channel.tryLock();
        } catch (java.nio.channels.OverlappingFileLockException heldHere) {
            return null;
        }
    }

    @Override
    public void close() throws IOException {
        if (channel != null) {
            channel.close(); // releases the lock
        }
    }
}
