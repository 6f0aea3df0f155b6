package org.jvmreuse.pool.mpi;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.IntConsumer;
import org.jvmreuse.pool.common.PoolLog;

/**
 * Wake-ups between pool processes on one host. MPI has no way to block until a message arrives
 * without spinning a core, so each slot keeps a Unix socket to its manager, and to each other
 * manager on its host (their Shuffle Managers serve its reducers): after an MPI send,
 * the sender writes one byte to the receiver's doorbell, and an idle communication thread sleeps
 * in select(2) instead of polling. A doorbell that reaches end-of-file means the process at the
 * other end is gone, which is how a manager notices a slot that died. So a manager admits a
 * slot's doorbell only with the key that slot made and sent it over MPI at start-up, and only
 * once: another process of the same user cannot plant a doorbell for a slot and close it.
 */
public final class Doorbells implements AutoCloseable {
    private static final ByteBuffer RING = ByteBuffer.wrap(new byte[] {1});

    private final Selector selector;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Map<Integer, SocketChannel> byRank = new ConcurrentHashMap<>();
    /** Keys of the slots whose doorbells have not been admitted yet (manager side). */
    private final Map<Integer, String> keys = new ConcurrentHashMap<>();
    private final Queue<Map.Entry<Integer, SocketChannel>> toRegister = new ConcurrentLinkedQueue<>();
    private final ByteBuffer drain = ByteBuffer.allocate(256);

    public Doorbells() {
        try {
            selector = Selector.open();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A fresh random key for this process's doorbell. */
    public static String newKey() {
        byte[] key = new byte[16];
        RANDOM.nextBytes(key);
        return HexFormat.of().formatHex(key);
    }

    /** The key the doorbell of {@code rank} must present, learnt over MPI. */
    public void expect(int rank, String key) {
        keys.put(rank, key);
    }

    /**
     * Adds the doorbell of {@code rank} if it presents that rank's key and none was admitted
     * before; false (and nothing added) otherwise. Safe from any thread.
     */
    public boolean admit(int rank, String key, SocketChannel channel) throws IOException {
        if (key == null || key.isEmpty() || !keys.remove(rank, key)) {
            return false;
        }
        attach(rank, channel);
        return true;
    }

    /** Adds the doorbell of {@code rank}; safe from any thread. */
    public void attach(int rank, SocketChannel channel) throws IOException {
        channel.configureBlocking(false);
        byRank.put(rank, channel);
        toRegister.add(Map.entry(rank, channel));
        selector.wakeup();
    }

    public boolean has(int rank) {
        return byRank.containsKey(rank);
    }

    /** Rings {@code rank}'s doorbell, if it has one. Never blocks: a full socket means it is ringing already. */
    public void ring(int rank) {
        SocketChannel channel = byRank.get(rank);
        if (channel != null) {
            try {
                channel.write(RING.duplicate());
            } catch (IOException e) {
                // the peer is gone; its end-of-file reaches await()
            }
        }
    }

    /** Wakes this process's own communication thread (another thread queued a send). */
    public void wakeSelf() {
        selector.wakeup();
    }

    /**
     * Sleeps until a doorbell rings, {@link #wakeSelf} is called, or {@code millis} pass;
     * {@code onLost} gets the rank of each doorbell found closed. Returns how many rings were
     * heard (a peer rings once per message it sends here).
     */
    public int await(long millis, IntConsumer onLost) throws IOException {
        registerNew();
        selector.select(Math.max(1, millis));
        return handleSelected(onLost);
    }

    /** As {@link #await} without sleeping: for a loop that is busy, so that a lost peer is still seen. */
    public int check(IntConsumer onLost) throws IOException {
        registerNew();
        selector.selectNow();
        return handleSelected(onLost);
    }

    private void registerNew() throws IOException {
        for (Map.Entry<Integer, SocketChannel> e; (e = toRegister.poll()) != null; ) {
            e.getValue().register(selector, SelectionKey.OP_READ, e.getKey());
        }
    }

    private int handleSelected(IntConsumer onLost) throws IOException {
        int rings = 0;
        for (SelectionKey key : selector.selectedKeys()) {
            SocketChannel channel = (SocketChannel) key.channel();
            int rank = (Integer) key.attachment();
            int read;
            try {
                do {
                    drain.clear();
                    read = channel.read(drain);
                    rings += Math.max(0, read);
                } while (read > 0);
            } catch (IOException e) {
                read = -1;
            }
            if (read < 0) {
                key.cancel();
                byRank.remove(rank, channel);
                channel.close();
                PoolLog.get().warn("the doorbell of rank " + rank + " closed: that process has ended");
                onLost.accept(rank);
            }
        }
        selector.selectedKeys().clear();
        return rings;
    }

    /** Closes every doorbell and the selector; for tests, which start many pools in one JVM. */
    @Override
    public void close() throws IOException {
        for (SocketChannel channel : byRank.values()) {
            channel.close();
        }
        byRank.clear();
        for (Map.Entry<Integer, SocketChannel> e; (e = toRegister.poll()) != null; ) {
            e.getValue().close();
        }
        selector.close();
    }
}
