package org.jvmreuse.shuffle.server;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Chunks mapped for reducers on this host that copy them out of this process themselves (DIRECT
 * replies), until the reducer releases them: one by one with its next read of the same segment,
 * and all of a segment's with a RELEASE when its stream ends. A reducer that dies with chunks
 * lent, or a reply that arrives after its stream ended, would leave mappings behind: those go
 * after {@link #EXPIRY_NANOS} (a reducer that copies later fails that fetch and reads the map
 * output again). Safe from any thread.
 */
final class LentChunks {
    /** Far longer than a reducer holds a chunk (milliseconds), far shorter than a job keeps its outputs. */
    static final long EXPIRY_NANOS = TimeUnit.MINUTES.toNanos(5);
    /** How long a released request is remembered, so that a chunk mapped for it afterwards goes at once. */
    private static final long RELEASED_NANOS = TimeUnit.MINUTES.toNanos(1);

    private record Request(int rank, long requestId) {
    }

    private record Key(Request request, long offset) {
    }

    private record Lent(ByteBuffer mapping, long since) {
    }

    private final Map<Key, Lent> lent = new ConcurrentHashMap<>();
    private final Map<Request, Long> released = new ConcurrentHashMap<>();
    private volatile long lastSweep = System.nanoTime();

    /**
     * Keeps {@code mapping} (a chunk of request {@code requestId} from {@code rank} at {@code offset})
     * until released; false, and nothing kept, if that request was released already.
     */
    boolean add(int rank, long requestId, long offset, ByteBuffer mapping) {
        Request request = new Request(rank, requestId);
        if (released.containsKey(request)) {
            return false;
        }
        Key key = new Key(request, offset);
        Lent old = lent.put(key, new Lent(mapping, System.nanoTime()));
        if (old != null) {
            Mappings.unmap(old.mapping); // the same chunk asked for twice: the reducer reads the latest
        }
        if (released.containsKey(request) && lent.remove(key) != null) {
            return false; // released while being added: the caller unmaps it
        }
        return true;
    }

    /** The reducer has copied this chunk. */
    void release(int rank, long requestId, long offset) {
        Lent chunk = lent.remove(new Key(new Request(rank, requestId), offset));
        if (chunk != null) {
            Mappings.unmap(chunk.mapping);
        }
    }

    /** The reducer's stream of this request has ended: every chunk of it goes, and any mapped for it later. */
    void releaseAll(int rank, long requestId) {
        Request request = new Request(rank, requestId);
        released.put(request, System.nanoTime());
        lent.entrySet().removeIf(e -> {
            if (e.getKey().request.equals(request)) {
                Mappings.unmap(e.getValue().mapping);
                return true;
            }
            return false;
        });
    }

    /** Unmaps chunks lent longer than {@link #EXPIRY_NANOS}; looks at most once a second. */
    void expire() {
        long now = System.nanoTime();
        if (now - lastSweep < TimeUnit.SECONDS.toNanos(1)) {
            return;
        }
        lastSweep = now;
        lent.entrySet().removeIf(e -> {
            if (now - e.getValue().since > EXPIRY_NANOS) {
                Mappings.unmap(e.getValue().mapping);
                return true;
            }
            return false;
        });
        released.values().removeIf(since -> now - since > RELEASED_NANOS);
    }

    int size() {
        return lent.size();
    }

    /** Unmaps everything (the server stops). */
    void clear() {
        lent.keySet().forEach(key -> {
            Lent chunk = lent.remove(key);
            if (chunk != null) {
                Mappings.unmap(chunk.mapping);
            }
        });
    }
}
