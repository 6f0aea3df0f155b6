package org.jvmreuse.shuffle.server;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jvmreuse.boot.LocalPeers;
import org.jvmreuse.boot.ServicePort;
import org.jvmreuse.shuffle.protocol.Messages;
import org.jvmreuse.shuffle.protocol.RequestHash;

/**
 * Serves chunk reads of this node's map outputs. Requests arrive on the pool process's
 * communication thread and are only queued there; reads happen on the server's threads, and
 * replies go back through the same communication thread, so MPI is only ever called from it.
 * Blocking mode is the FX10 paper's server: one thread, one request at a time. Concurrent mode
 * reads for many reducers at once. A reducer on this host that can copy a chunk out of this
 * process itself (its read says {@code direct}) gets a DIRECT reply that says where the chunk is
 * mapped, and the mapping stays until that reducer releases it ({@link LentOutputs}). One that
 * can take an open file out of this process (its read says {@code file}) gets the whole segment
 * at once: a FILE reply names the map output's descriptor here, open until released, and the
 * reducer reads the segment itself; this server reads no byte of it. Every READ must carry its
 * job's shuffle HMAC ({@link JobSecrets}, {@code RequestHash}), as every HTTP request to the
 * NodeManager's ShuffleHandler must.
 */
final class ShuffleServer {
    /** The largest chunk a reducer may ask for. */
    static final int MAX_CHUNK = 8 << 20;

    private final MapOutputs outputs;
    private final JobSecrets secrets;
    /** The NodeManager shuffle port this server stands in for: what the requests' HMACs name. */
    private final int shufflePort;
    private final ServicePort port;
    /** The port's same-host access (to lend chunks and files to reducers on this host); null where it has none. */
    private final LocalPeers peers;
    private final ExecutorService blocking = Executors.newSingleThreadExecutor(r -> thread(r, "mpi-shuffle-blocking"));
    private final ExecutorService concurrent;
    private final AtomicLong served = new AtomicLong();
    private final AtomicLong lentChunks = new AtomicLong();
    private final AtomicLong lentFiles = new AtomicLong();
    private final LentOutputs lent = new LentOutputs();
    private final AtomicLong failures = new AtomicLong();
    private volatile boolean stopped;

    ShuffleServer(MapOutputs outputs, JobSecrets secrets, int shufflePort, int threads, ServicePort port) {
        this.outputs = outputs;
        this.secrets = secrets;
        this.shufflePort = shufflePort;
        this.port = port;
        this.peers = port.localPeers().orElse(null);
        this.concurrent = Executors.newFixedThreadPool(threads, r -> thread(r, "mpi-shuffle-server"));
    }

    /** On the communication thread: decode and queue, never block. */
    void receive(int source, ByteBuffer payload) {
        Object message;
        try {
            message = Messages.decode(payload);
        } catch (IOException e) {
            port.log("warn", "MPI shuffle: a malformed request from rank " + source + ": " + e.getMessage());
            return;
        } finally {
            port.release(payload); // a request is copied out of its buffer
        }
        if (message instanceof Messages.Ping ping) {
            // Answered here, ahead of queued reads: a reducer asks only whether this server is there.
            port.send(source, stopped ? unavailable(ping.requestId()) : new Messages.Alive(ping.requestId()).encode());
            return;
        }
        if (message instanceof Messages.Release release) {
            try {
                concurrent.execute(() -> lent.releaseAll(source, release.requestId()));
            } catch (RejectedExecutionException e) {
                // stopping: stop() unmaps everything
            }
            return;
        }
        if (!(message instanceof Messages.Read read)) {
            port.log("warn", "MPI shuffle: rank " + source + " sent a reply to the server; ignored");
            return;
        }
        ExecutorService lane = read.mode() == Messages.Mode.BLOCKING ? blocking : concurrent;
        try {
            if (stopped) {
                throw new RejectedExecutionException();
            }
            lane.execute(() -> serve(source, read));
        } catch (RejectedExecutionException e) {
            port.send(source, unavailable(read.requestId()));
        }
    }

    /**
     * On the communication thread: the process of {@code rank}, on this host, has ended. What
     * was lent to it goes now (its own descriptors went with it), not at the expiry.
     */
    void lost(int rank) {
        try {
            concurrent.execute(() -> lent.releaseRank(rank));
        } catch (RejectedExecutionException e) {
            // stopping: stop() gives everything back
        }
    }

    /** The answer once stopped: the reducer takes this host's outputs over HTTP instead. */
    private static ByteBuffer unavailable(long requestId) {
        return new Messages.Failure(requestId, "the Shuffle Manager is stopping", true).encode();
    }

    private void serve(int source, Messages.Read read) {
        ByteBuffer chunk = null; // mapped here and not yet handed on: unmapped if serving fails
        try {
            authenticate(read);
            if (read.release() >= 0) {
                lent.release(source, read.requestId(), read.release());
            }
            if (read.length() <= 0 || read.length() > MAX_CHUNK) {
                throw new MapOutputException("chunk length " + read.length() + " is outside 1.." + MAX_CHUNK);
            }
            if (read.offset() < 0) {
                // Would reach bytes before the segment: another partition's, or the file's start.
                throw new MapOutputException("offset " + read.offset() + " is negative");
            }
            MapOutputs.Segment segment = outputs.segment(read.user(), read.jobId(), read.mapId(), read.reduce());
            // A read at or past the end gets no bytes: a reducer may ask ahead before it knows the length.
            int length = (int) Math.min(read.length(), Math.max(0, segment.length() - read.offset()));
            boolean lendFile = length > 0 && read.file() && local(source);
            if (read.offset() == 0) {
                port.log("info", "MPI shuffle: serving " + read.mapId() + " partition " + read.reduce() + " ("
                        + segment.length() + " bytes, " + read.mode().name().toLowerCase()
                        + (lendFile ? ", file lent" : "") + ") to rank " + source);
            }
            if (lendFile) {
                lendFile(source, read, segment);
                return;
            }
            if (length > 0) {
                chunk = outputs.map(segment, read.offset(), length);
            }
            served.incrementAndGet();
            if (chunk != null && read.direct() && local(source)) {
                // The reducer copies the chunk out of this process (one copy, by its own thread)
                // and releases it; nothing but the header goes over MPI.
                ByteBuffer header = Messages.Data.direct(port.buffer(Messages.Data.DIRECT_HEADER), read.requestId(),
                        read.offset(), segment.length(), segment.rawLength(), length, peers.pid(), peers.address(chunk));
                ByteBuffer mapped = chunk;
                chunk = null; // kept until released, or unmapped at once by add
                if (!lent.add(source, read.requestId(), read.offset(), () -> Mappings.unmap(mapped))) {
                    port.release(header); // its stream has ended: nobody would copy it
                    return;
                }
                lentChunks.incrementAndGet();
                port.send(source, header);
                return;
            }
            ByteBuffer header = Messages.Data.header(port.buffer(Messages.Data.HEADER), read.requestId(), read.offset(),
                    segment.length(), segment.rawLength(), chunk);
            if (chunk == null) {
                port.send(source, header);
            } else {
                // MPI sends the mapped region in place and hands it back, to be unmapped, once done with it.
                port.sendLent(source, header, chunk, Mappings::unmap);
            }
        } catch (IOException | RuntimeException e) {
            failures.incrementAndGet();
            port.log("warn", "MPI shuffle: cannot serve " + read.mapId() + " partition " + read.reduce() + " to rank "
                    + source + ": " + e.getMessage());
            if (chunk != null) {
                Mappings.unmap(chunk);
            }
            port.send(source, new Messages.Failure(read.requestId(), String.valueOf(e.getMessage())).encode());
        }
    }

    /**
     * Whether chunks and files can be lent to {@code rank} for it to copy or read itself: the port
     * has same-host access, {@code rank} is a pool process on this host, and it did not announce
     * another host's name (hosts that share a kernel could still reach each other's processes).
     */
    private boolean local(int rank) {
        String mine = port.host(port.rank());
        String theirs = port.host(rank);
        boolean otherHost = !mine.isEmpty() && !theirs.isEmpty() && !mine.equals(theirs);
        return !otherHost && peers != null && peers.isLocal(rank);
    }

    /**
     * Refuses a READ that does not carry its job's shuffle HMAC of what it asks for (as Hadoop's
     * ShuffleHandler refuses a URL without it): only a reducer of the job, which has the job's
     * secret, reads the job's map outputs.
     */
    private void authenticate(Messages.Read read) throws IOException {
        if (!RequestHash.matches(read, secrets.of(read.jobId()), shufflePort)) {
            throw new MapOutputException("the request for " + read.mapId() + " partition " + read.reduce()
                    + " does not carry the shuffle HMAC of " + read.jobId());
        }
    }

    /**
     * Answers {@code read} with a FILE reply: the segment from the read's offset on, in the map
     * output opened here and kept open for the reducer until it releases the request.
     */
    private void lendFile(int source, Messages.Read read, MapOutputs.Segment segment) throws IOException {
        int fd = outputs.open(segment, peers::openFile, peers::closeFile);
        long[] key = peers.fileKey(fd);
        if (key == null) {
            peers.closeFile(fd);
            throw new IOException("cannot tell the device and inode of " + segment.file() + " opened to lend");
        }
        ByteBuffer header = Messages.Data.file(port.buffer(Messages.Data.FILE_HEADER), read.requestId(), read.offset(),
                segment.length(), segment.rawLength(), peers.pid(), fd, segment.start() + read.offset(), key);
        if (!lent.add(source, read.requestId(), read.offset(), () -> peers.closeFile(fd))) {
            port.release(header); // its stream has ended: nobody would read it (add closed it)
            return;
        }
        lentFiles.incrementAndGet();
        port.send(source, header);
    }

    void stop() {
        stopped = true;
        blocking.shutdownNow();
        concurrent.shutdownNow();
        try {
            concurrent.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        lent.close();
        port.log("info", "MPI shuffle: served " + served.get() + " chunks (" + lentChunks.get() + " of them copied by"
                + " reducers on this host out of this process), lent " + lentFiles.get() + " segments' files to reducers"
                + " on this host, " + failures.get() + " failed requests");
    }

    private static Thread thread(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }
}
