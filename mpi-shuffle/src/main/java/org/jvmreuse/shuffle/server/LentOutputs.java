package org.jvmreuse.shuffle.server;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * What is lent to reducers on this host that read map outputs out of this process themselves:
 * chunks mapped for DIRECT replies and files opened for FILE replies, each with what gives it
 * back (unmap, close), until the reducer releases it: a chunk with its next read of the same
 * segment, and everything of a segment with a RELEASE when its stream ends. A reducer that dies
 * with something lent, or a reply that arrives after its stream ended, would leave mappings or
 * descriptors behind: those go when the pool finds the reducer's rank lost, and at the latest
 * after the expiry, which a sweeper thread checks without waiting for further requests (a
 * reducer that copies later fails that fetch and reads the map output again). Whatever gives
 * an entry back removes it first, so each is given back exactly once: a descriptor closed twice
 * could close a number reused meanwhile by another lend, a control connection or MPI. Safe
 * from any thread.
 */
final class LentOutputs implements AutoCloseable {
    /** Far longer than a reducer holds a chunk (milliseconds), far shorter than a job keeps its outputs. */
    static final long EXPIRY_NANOS = TimeUnit.MINUTES.toNanos(5);
    /** How long a released request is remembered, so that a chunk mapped for it afterwards goes at once. */
    private static final long RELEASED_NANOS = TimeUnit.MINUTES.toNanos(1);

    private record Request(int rank, long requestId) {
    }

    private record Key(Request request, long offset) {
    }

    /** A class, not a record: two lends are never equal, so a removal takes only the one it saw. */
    private static final class Lent {
        final Runnable giveBack;
        final long since = System.nanoTime();

        Lent(Runnable giveBack) {
            this.giveBack = giveBack;
        }
    }

    private final Map<Key, Lent> lent = new ConcurrentHashMap<>();
    private final Map<Request, Long> released = new ConcurrentHashMap<>();
    private final long expiryNanos;
    private final ScheduledExecutorService sweeper = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "mpi-shuffle-lend-sweeper");
        t.setDaemon(true);
        return t;
    });

    LentOutputs() {
        this(EXPIRY_NANOS, TimeUnit.SECONDS.toNanos(1));
    }

    /** Lends expire after {@code expiryNanos}; the sweeper looks every {@code sweepNanos}. */
    LentOutputs(long expiryNanos, long sweepNanos) {
        this.expiryNanos = expiryNanos;
        sweeper.scheduleWithFixedDelay(() -> {
            try {
                expire();
            } catch (RuntimeException e) {
                // one give-back that failed must not end the sweeps (the executor would stop them)
            }
        }, sweepNanos, sweepNanos, TimeUnit.NANOSECONDS);
    }

    /**
     * Keeps what request {@code requestId} from {@code rank} was lent at {@code offset} until
     * released, then runs {@code giveBack}; false, nothing kept and {@code giveBack} run at once,
     * if that request was released already.
     */
    boolean add(int rank, long requestId, long offset, Runnable giveBack) {
        Request request = new Request(rank, requestId);
        if (released.containsKey(request)) {
            giveBack.run();
            return false;
        }
        Key key = new Key(request, offset);
        Lent added = new Lent(giveBack);
        Lent old = lent.put(key, added);
        if (old != null) {
            old.giveBack.run(); // the same chunk asked for twice: the reducer reads the latest
        }
        if (released.containsKey(request) && lent.remove(key, added)) {
            giveBack.run(); // released while being added
            return false;
        }
        return true;
    }

    /** The reducer is done with what it was lent at {@code offset}. */
    void release(int rank, long requestId, long offset) {
        Lent chunk = lent.remove(new Key(new Request(rank, requestId), offset));
        if (chunk != null) {
            chunk.giveBack.run();
        }
    }

    /** The reducer's stream of this request has ended: everything lent for it goes, and anything lent for it later. */
    void releaseAll(int rank, long requestId) {
        Request request = new Request(rank, requestId);
        released.put(request, System.nanoTime());
        giveBackWhere((key, l) -> key.request.equals(request));
    }

    /** The process of {@code rank} has ended: everything lent to it goes. */
    void releaseRank(int rank) {
        giveBackWhere((key, l) -> key.request.rank == rank);
    }

    /** Gives back what was lent longer than the expiry. */
    void expire() {
        long now = System.nanoTime();
        giveBackWhere((key, l) -> now - l.since > expiryNanos);
        released.values().removeIf(since -> now - since > RELEASED_NANOS);
    }

    private interface Match {
        boolean test(Key key, Lent lent);
    }

    /** Gives back each entry that {@code match} selects and that this call itself removed. */
    private void giveBackWhere(Match match) {
        for (Map.Entry<Key, Lent> e : lent.entrySet()) {
            if (match.test(e.getKey(), e.getValue()) && lent.remove(e.getKey(), e.getValue())) {
                e.getValue().giveBack.run();
            }
        }
    }

    int size() {
        return lent.size();
    }

    /** Stops the sweeper and gives back everything (the server stops). */
    @Override
    public void close() {
        sweeper.shutdownNow();
        giveBackWhere((key, l) -> true);
    }
}
