package org.jvmreuse.shuffle.reduce;

import java.io.IOException;
import java.io.InputStream;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.jvmreuse.shuffle.protocol.Messages;

/**
 * One map output segment, pulled from a Shuffle Manager over MPI: chunk reads with up to
 * {@code window} outstanding (1 in blocking mode), the bytes handed on in order (damage is
 * found by the IFile checksum of the segment, which Hadoop's {@code MapOutput.shuffle} checks). Every wait is bounded by {@code timeoutMillis}; any problem is an IOException, which
 * the caller reports as a fetch failure of this map. A server that stays silent for
 * {@code livenessMillis} is asked whether it is there (a PING its communication thread answers
 * at once); no answer within another {@code livenessMillis}, or a server that says it is
 * stopping, is a {@link ServerLostException}: the host's outputs then go over HTTP. A request
 * that says {@code direct} may get chunks that stay in the server's process: they are copied
 * from there straight into the caller's array, released one by one with the next read of the
 * segment, and all at once (a RELEASE) when the stream closes. A request that says {@code file}
 * asks only once: the server may lend the whole segment's open file, which this stream takes
 * out of the server's process and reads itself, straight into the caller's array, with no
 * further message until the RELEASE; where the kernel refuses that, the segment comes chunk by
 * chunk over MPI instead.
 */
final class SegmentStream extends InputStream {
    private final SlotLink link;
    private final int server;
    private final Messages.Read request;
    /** Whether reads still ask for direct chunks and a lent file (not after a lent file could not be taken). */
    private boolean direct;
    private boolean lendFile;
    private final int window;
    private final long timeoutMillis;
    private final long livenessNanos;
    private final long requestId;
    private final BlockingQueue<Object> replies = new LinkedBlockingQueue<>();
    private final Map<Long, Messages.Data> arrived = new HashMap<>();
    private long segmentLength = -1;
    private long rawLength = -1;
    private long nextRequest;
    private int outstanding;
    /** When the server was last heard from (or the stream was made). */
    private long lastHeard;
    private Messages.Data chunk;
    private int chunkPosition;
    private long consumed;
    private boolean closed; // guarded by this: deliver() runs on the communication thread
    /** The offset of a direct chunk copied and not yet released (-1: none). */
    private long release = -1;
    /** This process's descriptor of the lent file (-1: none), where the segment starts in it, and how far it was read. */
    private int file = -1;
    private long fileStart;
    private long filePosition;
    /** Whether the segment came in a lent file, and whether any of its chunks was a direct one. */
    private boolean fromFile;
    private boolean sawDirect;
    /** Bytes handed on, by {@link PathCounters.Way}. */
    private final long[] bytesByWay = new long[PathCounters.Way.values().length];

    /**
     * Asks for the segment's first chunks and returns without waiting, so that a fetcher can
     * request its next segment while it still copies this one. It asks for as many chunks as
     * {@code expectedLength} takes (a guess, such as the length of the segment before; at least
     * one, at most {@code window}); asks beyond the real end come back empty and are dropped.
     */
    SegmentStream(SlotLink link, int server, Messages.Read first, int window, long timeoutMillis, long livenessMillis,
                  long expectedLength) {
        this.link = link;
        this.server = server;
        this.window = window;
        this.timeoutMillis = timeoutMillis;
        this.livenessNanos = TimeUnit.MILLISECONDS.toNanos(livenessMillis);
        this.lastHeard = System.nanoTime();
        this.requestId = link.register(this::deliver);
        this.request = new Messages.Read(requestId, first.mode(), first.user(), first.jobId(), first.mapId(),
                first.reduce(), 0, first.length(), first.direct(), first.file(), -1, first.hash());
        this.direct = first.direct();
        this.lendFile = first.file();
        long chunks = lendFile ? 1 : Math.max(1, Math.min(window, (expectedLength + first.length() - 1) / first.length()));
        for (long i = 0; i < chunks; i++) {
            askNext();
        }
    }

    /** Waits for the first chunk, which tells the segment's lengths, and fills the window. */
    SegmentStream open() throws IOException {
        try {
            chunk = await(0);
            if (chunk.file() && takeFile()) {
                return this;
            }
            segmentLength = chunk.segmentLength();
            rawLength = chunk.rawLength();
            fill();
        } catch (IOException | RuntimeException e) {
            close();
            throw e;
        }
        return this;
    }

    /**
     * Takes the file that {@link #chunk} (a FILE reply) lends; true if it is this stream's now.
     * Where it cannot be taken, asks for the segment's first chunk over MPI instead and waits for it.
     */
    private boolean takeFile() throws IOException {
        Messages.Data lent = chunk;
        chunk = null;
        file = link.takeFile(server, lent);
        if (file >= 0) {
            segmentLength = lent.segmentLength();
            rawLength = lent.rawLength();
            fileStart = lent.address();
            fromFile = true;
            return true;
        }
        direct = false;
        lendFile = false;
        nextRequest = 0;
        askNext();
        chunk = await(0);
        return false;
    }

    long segmentLength() {
        return segmentLength;
    }

    long rawLength() {
        return rawLength;
    }

    /** The way this segment came: a lent file, else direct copies if any chunk came so, else MPI messages. */
    PathCounters.Way way() {
        return fromFile ? PathCounters.Way.LENT_FILE : sawDirect ? PathCounters.Way.DIRECT_COPY : PathCounters.Way.MPI_MESSAGE;
    }

    /** The bytes handed on so far, by way ({@link PathCounters.Way#ordinal}). */
    long[] bytesByWay() {
        return bytesByWay.clone();
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] into, int offset, int length) throws IOException {
        if (length == 0) {
            return 0;
        }
        if (file >= 0) {
            return readFile(into, offset, length);
        }
        if (chunkPosition == chunk.bytesLength()) {
            if (consumed + chunkPosition >= segmentLength) {
                return -1;
            }
            next();
        }
        int n = Math.min(length, chunk.bytesLength() - chunkPosition);
        if (chunk.direct()) {
            link.copyDirect(server, chunk, chunkPosition, into, offset, n);
            sawDirect = true;
            bytesByWay[PathCounters.Way.DIRECT_COPY.ordinal()] += n;
        } else {
            chunk.copy(chunkPosition, into, offset, n);
            bytesByWay[PathCounters.Way.MPI_MESSAGE.ordinal()] += n;
        }
        chunkPosition += n;
        return n;
    }

    /** Reads from the lent file, at most a chunk's length at a time (the array is pinned meanwhile). */
    private int readFile(byte[] into, int offset, int length) throws IOException {
        if (filePosition >= segmentLength) {
            return -1;
        }
        int n = (int) Math.min(Math.min(length, request.length()), segmentLength - filePosition);
        int read = link.readFile(file, fileStart + filePosition, into, offset, n);
        if (read <= 0) {
            throw new IOException("cannot read bytes " + filePosition + "+" + n + " of " + request.mapId() + " from the file"
                    + " lent by MPI rank " + server + ": " + (read < 0 ? "errno " + -read : "the file ends there"));
        }
        filePosition += read;
        bytesByWay[PathCounters.Way.LENT_FILE.ordinal()] += read;
        return read;
    }

    /** On the communication thread: hands a reply on, or gives its buffer back once the stream is closed. */
    private synchronized void deliver(Object reply) {
        if (!closed) {
            replies.add(reply);
        } else if (reply instanceof Messages.Data data) {
            link.release(data);
        }
    }

    /** Stops taking replies and gives back every chunk buffer still held or still coming. */
    @Override
    public void close() {
        link.unregister(requestId);
        synchronized (this) {
            closed = true;
        }
        if (chunk != null) {
            link.release(chunk);
            chunk = null;
        }
        arrived.values().forEach(link::release);
        arrived.clear();
        for (Object late; (late = replies.poll()) != null; ) {
            if (late instanceof Messages.Data data) {
                link.release(data);
            }
        }
        if (file >= 0) {
            link.closeFile(file);
            file = -1;
        }
        if (request.direct() || request.file()) {
            // Every direct chunk or file of this request that the server still keeps can go,
            // also those answering reads still on their way.
            link.send(server, new Messages.Release(requestId).encode());
        }
    }

    private void next() throws IOException {
        consumed += chunk.bytesLength();
        if (chunk.direct()) {
            release = chunk.offset(); // goes with the next read
        }
        link.release(chunk);
        chunk = null;
        chunk = await(consumed);
        chunkPosition = 0;
        if (chunk.bytesLength() == 0) {
            throw new IOException("empty chunk at " + consumed + " of " + segmentLength + " bytes of " + request.mapId());
        }
        fill();
    }

    /** Keeps {@code window} chunk reads outstanding. */
    private void fill() {
        while (outstanding < window && nextRequest < segmentLength) {
            askNext();
        }
    }

    /** Asks for the chunk at {@code nextRequest} and moves it on by one chunk. */
    private void askNext() {
        link.send(server, new Messages.Read(requestId, request.mode(), request.user(), request.jobId(), request.mapId(),
                request.reduce(), nextRequest, request.length(), direct, lendFile, release, request.hash()).encode());
        release = -1;
        nextRequest += request.length();
        outstanding++;
    }

    private Messages.Data await(long offset) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        long pingDeadline = 0; // while a liveness check is out: when it must have been answered
        while (!arrived.containsKey(offset)) {
            long now = System.nanoTime();
            long until = Math.min(deadline, pingDeadline != 0 ? pingDeadline : lastHeard + livenessNanos);
            Object reply;
            try {
                reply = replies.poll(Math.max(0, until - now), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while fetching " + request.mapId(), e);
            }
            now = System.nanoTime();
            if (reply == null) {
                if (now - deadline >= 0) {
                    throw new IOException("no reply from MPI rank " + server + " within " + timeoutMillis + " ms for bytes at "
                            + offset + " of " + request.mapId());
                }
                if (pingDeadline != 0 && now - pingDeadline >= 0) {
                    throw new ServerLostException("the Shuffle Manager at MPI rank " + server + " answered neither reads nor a"
                            + " liveness check for " + TimeUnit.NANOSECONDS.toMillis(now - lastHeard) + " ms");
                }
                if (pingDeadline == 0 && now - lastHeard >= livenessNanos) {
                    link.send(server, new Messages.Ping(requestId).encode());
                    pingDeadline = now + livenessNanos;
                }
                continue;
            }
            lastHeard = now;
            pingDeadline = 0;
            if (reply instanceof Messages.Alive) {
                continue; // there and busy: keep waiting, up to the read timeout
            }
            outstanding--;
            if (reply instanceof Messages.Failure failure && failure.unavailable()) {
                throw new ServerLostException("the Shuffle Manager at MPI rank " + server + " cannot serve: " + failure.reason());
            }
            if (reply instanceof Messages.Failure failure) {
                throw new IOException("MPI rank " + server + " cannot serve " + request.mapId() + ": " + failure.reason());
            }
            Messages.Data data = (Messages.Data) reply;
            if (segmentLength >= 0 && data.segmentLength() != segmentLength) {
                link.release(data);
                throw new IOException("the segment of " + request.mapId() + " changed length while being read");
            }
            if (data.bytesLength() == 0 && data.offset() > 0 && data.offset() >= data.segmentLength()) {
                link.release(data); // an ask beyond the end, made before the length was known
            } else {
                arrived.put(data.offset(), data); // from here on, close() gives its buffer back
            }
        }
        return arrived.remove(offset);
    }
}
