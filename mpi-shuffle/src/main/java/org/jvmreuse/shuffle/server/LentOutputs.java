package org.jvmreuse.shuffle.server;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * What is lent to reducers on this host that read map outputs out of this process themselves:
 * chunks mapped for DIRECT replies and files opened for FILE replies, each with what gives it
 * back (unmap, close), until the reducer releases it: a chunk with its next read of the same
 * segment, and everything of a segment with a RELEASE when its stream ends. A reducer that dies
 * with something lent, or a reply that arrives after its stream ended, would leave mappings or
 * descriptors behind: those go after {@link #EXPIRY_NANOS} (a reducer that copies later fails
 * that fetch and reads the map output again). Safe from any thread.
 */
final class LentOutputs {
    /** Far longer than a reducer holds a chunk (milliseconds), far shorter than a job keeps its outputs. */
    static final long EXPIRY_NANOS = TimeUnit.MINUTES.toNanos(5);
    /** How long a released request is remembered, so that a chunk mapped for it afterwards goes at once. */
    private static final long RELEASED_NANOS = TimeUnit.MINUTES.toNanos(1);

    private record Request(int rank, long requestId) {
    }

    private record Key(Request request, long offset) {
    }

    private record Lent(Runnable giveBack, long since) {
    }

    private final Map<Key, Lent> lent = new ConcurrentHashMap<>();
    private final Map<Request, Long> released = new ConcurrentHashMap<>();
    private volatile long lastSweep = System.nanoTime();

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
        Lent old = lent.put(key, new Lent(giveBack, System.nanoTime()));
        if (old != null) {
            old.giveBack.run(); // the same chunk asked for twice: the reducer reads the latest
        }
        if (released.containsKey(request) && lent.remove(key) != null) {
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
        lent.entrySet().removeIf(e -> {
            if (e.getKey().request.equals(request)) {
                e.getValue().giveBack.run();
                return true;
            }
            return false;
        });
    }

    /** Gives back what was lent longer than {@link #EXPIRY_NANOS}; looks at most once a second. */
    void expire() {
        long now = System.nanoTime();
        if (now - lastSweep < TimeUnit.SECONDS.toNanos(1)) {
            return;
        }
        lastSweep = now;
        lent.entrySet().removeIf(e -> {
            if (now - e.getValue().since > EXPIRY_NANOS) {
                e.getValue().giveBack.run();
                return true;
            }
            return false;
        });
        released.values().removeIf(since -> now - since > RELEASED_NANOS);
    }

    int size() {
        return lent.size();
    }

    /** Gives back everything (the server stops). */
    void clear() {
        lent.keySet().forEach(key -> {
            Lent chunk = lent.remove(key);
            if (chunk != null) {
                chunk.giveBack.run();
            }
        });
    }
}
