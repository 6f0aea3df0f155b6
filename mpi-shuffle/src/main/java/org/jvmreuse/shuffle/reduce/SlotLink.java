package org.jvmreuse.shuffle.reduce;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.jvmreuse.shuffle.protocol.Messages;

/**
 * A reducer's way to its slot's MPI. When the slot loads Hadoop's shared class path it makes this
 * module's run hook ({@link SlotLinkHook}, listed in META-INF/services/org.jvmreuse.boot.RunHook),
 * which attaches a link on the slot's {@code org.jvmreuse.boot.ServicePort} ({@link PortLink}):
 * the slot's rank, the service directory and service messages. Outside a pool slot it is never
 * attached, and the shuffle goes over HTTP. Such a reducer (a stock container, with no
 * org.jvmreuse.boot anywhere) still loads this class and asks {@link #current}, so this class
 * names no type of org.jvmreuse.boot, in its signatures, fields or code: what reaches the port is
 * {@link PortLink}'s, which only a slot loads (StockReducerTest). Replies are routed by request
 * id; what a run left waiting is dropped after the run. Ranks whose Shuffle Manager was found gone
 * stay marked for the slot's life (the service directory of a launch never changes, and a stopped
 * or dead pool does not come back in it), so later reducers in this slot go to HTTP for them at
 * once. Where the port can read other processes' memory and the server is on this host, a fetch
 * asks for direct chunks and copies each out of the Shuffle Manager's process into Hadoop's buffer
 * itself ({@link #copyDirect}); a server whose memory this slot turns out not to be allowed to
 * read (EPERM: Yama's ptrace_scope) is marked, and its chunks come over MPI from then on. Where
 * the port can also take open files out of other processes, a fetch asks for the whole segment's
 * file instead and reads it itself ({@link #takeFile}, {@link #readFile}); a server whose files
 * cannot be taken here (EPERM; ENOSYS: a kernel before 5.6) is marked, and its segments come
 * chunk by chunk from then on.
 */
public abstract class SlotLink {
    private static volatile SlotLink attached;
    private static final int EPERM = 1;
    private static final int ENOSYS = 38;

    private final int rank;
    private final List<String> directory;
    private final Map<Long, Consumer<Object>> waiting = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();
    private final Set<Integer> lost = ConcurrentHashMap.newKeySet();
    private final Set<Integer> noDirect = ConcurrentHashMap.newKeySet();
    private final Set<Integer> noFiles = ConcurrentHashMap.newKeySet();
    /** Per rank, the DATA header whose bytes are its next message (only the communication thread uses it). */
    private final Map<Integer, Messages.Data> bodyOf = new HashMap<>();

    SlotLink(int rank, List<String> directory) {
        this.rank = rank;
        this.directory = directory;
    }

    /** Makes {@code link} this slot's (its run hook, once, outside any run). */
    static void attach(SlotLink link) {
        attached = link;
    }

    /** After every run: what the run left waiting is dropped. */
    static void afterRun() {
        SlotLink link = attached;
        if (link != null) {
            link.waiting.clear();
        }
    }

    /** This slot's link, or null outside a pool slot. */
    static SlotLink current() {
        return attached;
    }

    int rank() {
        return rank;
    }

    List<String> directory() {
        return directory;
    }

    /** Marks the Shuffle Manager at {@code server} as gone; true if it was not marked yet. */
    boolean markLost(int server) {
        return lost.add(server);
    }

    boolean isLost(int server) {
        return lost.contains(server);
    }

    /** Whether chunks of {@code server} can be copied out of its process here (same host, allowed, offered by the port). */
    boolean canCopyDirect(int server) {
        return sameHost(server) && copiesFrom(server) && !noDirect.contains(server);
    }

    /**
     * Copies {@code length} bytes of a direct chunk from {@code server}, from {@code from} on,
     * into {@code into} at {@code at}, straight out of the server's process.
     */
    void copyDirect(int server, Messages.Data chunk, int from, byte[] into, int at, int length) throws IOException {
        if (from < 0 || length < 0 || from + length > chunk.bytesLength()) {
            throw new IOException("bytes " + from + "+" + length + " are outside a chunk of " + chunk.bytesLength());
        }
        int copied = peerRead(chunk.pid(), chunk.address() + from, into, at, length);
        if (copied != length) {
            if (copied == -EPERM || copied == -ENOSYS) {
                noDirect.add(server); // not allowed here: later reads take the bytes over MPI
            }
            throw new IOException("cannot copy " + length + " bytes of a chunk out of the Shuffle Manager's process "
                    + chunk.pid() + " (MPI rank " + server + "): " + (copied < 0 ? "errno " + -copied : copied + " bytes copied"));
        }
    }

    /** Whether segments of {@code server} can be read here from its lent files (same host, allowed, offered by the port). */
    boolean canTakeFiles(int server) {
        return sameHost(server) && takesFilesFrom(server) && !noFiles.contains(server);
    }

    /**
     * This process's descriptor for the file {@code lent} names in the server's process (a FILE
     * reply), to read with {@link #readFile} and close with {@link #closeFile}; or -errno, and
     * where the kernel refuses (EPERM, ENOSYS) that server is marked: its segments come chunk by
     * chunk from then on. A descriptor that is not the file lent (its device and inode differ: the
     * lend had expired and its number was reused, or the server's process id names another process
     * now) is closed again, an IOException.
     */
    int takeFile(int server, Messages.Data lent) throws IOException {
        int fd = takeFrom(lent.pid(), lent.fd());
        if (fd == -EPERM || fd == -ENOSYS) {
            noFiles.add(server);
        }
        if (fd >= 0 && !lent.lends(fileKey(fd))) {
            closeFile(fd);
            throw new IOException("descriptor " + lent.fd() + " of process " + lent.pid() + " (MPI rank " + server
                    + ") is not the file it lent");
        }
        return fd;
    }

    /** A new request id whose replies go to {@code replies} (on the communication thread: must not block). */
    long register(Consumer<Object> replies) {
        long id = ids.incrementAndGet();
        waiting.put(id, replies);
        return id;
    }

    void unregister(long id) {
        waiting.remove(id);
    }

    /** Gives a received chunk's buffer back to the slot's MPI once its bytes are copied out. */
    void release(Messages.Data chunk) {
        if (chunk.bytes() != null) {
            giveBack(chunk.bytes());
        }
    }

    // What reaches the port: only the link on a ServicePort (PortLink) implements these, and only
    // a slot (or its warm-up) makes one.

    /** Sends a service message to {@code rank} through the slot's MPI. */
    abstract void send(int rank, ByteBuffer message);

    /** Gives a received message's buffer back to the slot's MPI. */
    abstract void giveBack(ByteBuffer buffer);

    /**
     * Whether {@code server} runs on this host: the host names the two ranks announced at start-up
     * are the same (where they are not known, whether the port offers same-host access to it).
     * Lent files and direct copies are used only then, and the counters tell same-host bytes from
     * the others by it ({@link PathCounters}).
     */
    abstract boolean sameHost(int server);

    /** Whether the port offers copies out of {@code server}'s memory (it is on this host). */
    abstract boolean copiesFrom(int server);

    /** Whether the port offers taking {@code server}'s open files (it is on this host). */
    abstract boolean takesFilesFrom(int server);

    /** Copies {@code length} bytes at {@code address} of process {@code pid} into {@code into} at {@code at}: the count, or -errno. */
    abstract int peerRead(long pid, long address, byte[] into, int at, int length);

    /** A descriptor here for the file open as {@code fd} in process {@code pid}, or -errno. */
    abstract int takeFrom(long pid, int fd);

    /** {device, inode} of the file open as {@code fd} here, or null. */
    abstract long[] fileKey(int fd);

    /** Reads up to {@code length} bytes at {@code position} of {@code fd} into {@code into} at {@code at}: the count, or -errno. */
    abstract int readFile(int fd, long position, byte[] into, int at, int length);

    abstract void closeFile(int fd);

    /**
     * On the communication thread. A DATA header that announces bytes waits here for them: they
     * are the next message from the same rank (its communication thread sends the pair as one
     * unit, and MPI keeps their order).
     */
    final void receive(int source, ByteBuffer payload) {
        Messages.Data header = bodyOf.remove(source);
        if (header != null) {
            Messages.Data chunk;
            try {
                chunk = header.with(payload);
            } catch (IOException e) {
                giveBack(payload);
                return; // not what was announced; the read it answered fails on its time-out
            }
            Consumer<Object> target = waiting.get(chunk.requestId());
            if (target != null) {
                target.accept(chunk); // the chunk keeps its buffer until the stream releases it
            } else {
                giveBack(payload);
            }
            return;
        }
        Object message;
        try {
            message = Messages.decode(payload);
        } catch (IOException e) {
            return; // nothing can be matched to it; the request it answered times out
        } finally {
            giveBack(payload); // every message but a chunk's bytes is copied out of its buffer
        }
        if (message instanceof Messages.Data data && data.bytesLength() > 0 && !data.direct()) {
            bodyOf.put(source, data);
            return;
        }
        long id = message instanceof Messages.Data data ? data.requestId()
                : message instanceof Messages.Failure failure ? failure.requestId()
                : message instanceof Messages.Alive alive ? alive.requestId() : -1;
        Consumer<Object> target = waiting.get(id);
        if (target != null) {
            target.accept(message);
        }
    }
}
