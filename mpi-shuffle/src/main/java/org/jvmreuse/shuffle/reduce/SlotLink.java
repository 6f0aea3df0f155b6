package org.jvmreuse.shuffle.reduce;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.jvmreuse.shuffle.protocol.MessagePort;
import org.jvmreuse.shuffle.protocol.Messages;

/**
 * A reducer's way to its slot's MPI. The pool attaches it when the slot loads Hadoop's shared
 * class path (it is listed in META-INF/jvmreuse/run-hooks), handing over the slot's rank, the
 * service directory and service messages as JDK types. Outside a pool slot it is never
 * attached, and the shuffle goes over HTTP. Replies are routed by request id; what a run left
 * waiting is dropped after the run. Ranks whose Shuffle Manager was found gone stay marked for
 * the slot's life (the service directory of a launch never changes, and a stopped or dead pool
 * does not come back in it), so later reducers in this slot go to HTTP for them at once.
 * Where the port can read other processes' memory and the server is on this host, a fetch asks
 * for direct chunks and copies each out of the Shuffle Manager's process into Hadoop's buffer
 * itself ({@link #copyDirect}); a server whose memory this slot turns out not to be allowed to
 * read (EPERM: Yama's ptrace_scope) is marked, and its chunks come over MPI from then on.
 * Where the port can also take open files out of other processes, a fetch asks for the whole
 * segment's file instead and reads it itself ({@link #takeFile}, {@link #readFile}); a server
 * whose files cannot be taken here (EPERM; ENOSYS: a kernel before 5.6) is marked, and its
 * segments come chunk by chunk from then on.
 */
public final class SlotLink {
    private static volatile SlotLink attached;
    private static final int EPERM = 1;
    private static final int ENOSYS = 38;

    private final int rank;
    private final List<String> directory;
    private final MessagePort port;
    private final Map<Long, Consumer<Object>> waiting = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();
    private final Set<Integer> lost = ConcurrentHashMap.newKeySet();
    private final Set<Integer> noDirect = ConcurrentHashMap.newKeySet();
    private final Set<Integer> noFiles = ConcurrentHashMap.newKeySet();
    /** Per rank, the DATA header whose bytes are its next message (only the communication thread uses it). */
    private final Map<Integer, Messages.Data> bodyOf = new HashMap<>();

    @SuppressWarnings("unchecked")
    private SlotLink(Map<String, Object> port) {
        this.rank = (Integer) port.get("rank");
        this.directory = (List<String>) port.get("directory");
        this.port = MessagePort.of(port);
    }

    public static void attach(Map<String, Object> port) {
        attached = detached(port);
    }

    /** A link on {@code port} that is not the slot's (the warm-up's in-JVM message loop). */
    static SlotLink detached(Map<String, Object> port) {
        SlotLink link = new SlotLink(port);
        MessagePort.receiveWith(port, link::receive);
        return link;
    }

    public static void beforeRun(BiConsumer<String, String> setenv) {
        // nothing: a run starts with no request waiting
    }

    public static void afterRun(boolean exitHooks) {
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
        return port.peerRead() != null && port.local() != null && port.local().test(server) && !noDirect.contains(server);
    }

    /**
     * Copies {@code length} bytes of a direct chunk from {@code server}, from {@code from} on,
     * into {@code into} at {@code at}, straight out of the server's process.
     */
    void copyDirect(int server, Messages.Data chunk, int from, byte[] into, int at, int length) throws IOException {
        if (from < 0 || length < 0 || from + length > chunk.bytesLength()) {
            throw new IOException("bytes " + from + "+" + length + " are outside a chunk of " + chunk.bytesLength());
        }
        int copied = port.peerRead().apply(new long[] {chunk.pid(), chunk.address() + from, at, length}, into);
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
        return port.takeFile() != null && port.readFile() != null && port.closeFile() != null && port.fileKey() != null
                && port.local() != null && port.local().test(server) && !noFiles.contains(server);
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
        int fd = port.takeFile().applyAsInt(new long[] {lent.pid(), lent.fd()});
        if (fd == -EPERM || fd == -ENOSYS) {
            noFiles.add(server);
        }
        if (fd >= 0 && !lent.lends(port.fileKey().apply(fd))) {
            port.closeFile().applyAsInt(fd);
            throw new IOException("descriptor " + lent.fd() + " of process " + lent.pid() + " (MPI rank " + server
                    + ") is not the file it lent");
        }
        return fd;
    }

    /** Reads up to {@code length} bytes at {@code position} of {@code fd} into {@code into} at {@code at}: the count, or -errno. */
    int readFile(int fd, long position, byte[] into, int at, int length) {
        return port.readFile().apply(new long[] {fd, position, at, length}, into);
    }

    void closeFile(int fd) {
        port.closeFile().applyAsInt(fd);
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

    void send(int rank, ByteBuffer message) {
        port.send().accept(rank, message);
    }

    /** Gives a received chunk's buffer back to the slot's MPI once its bytes are copied out. */
    void release(Messages.Data chunk) {
        if (chunk.bytes() != null) {
            port.release().accept(chunk.bytes());
        }
    }

    /**
     * On the communication thread. A DATA header that announces bytes waits here for them: they
     * are the next message from the same rank (its communication thread sends the pair as one
     * unit, and MPI keeps their order).
     */
    private void receive(int source, ByteBuffer payload) {
        Messages.Data header = bodyOf.remove(source);
        if (header != null) {
            Messages.Data chunk;
            try {
                chunk = header.with(payload);
            } catch (IOException e) {
                port.release().accept(payload);
                return; // not what was announced; the read it answered fails on its time-out
            }
            Consumer<Object> target = waiting.get(chunk.requestId());
            if (target != null) {
                target.accept(chunk); // the chunk keeps its buffer until the stream releases it
            } else {
                port.release().accept(payload);
            }
            return;
        }
        Object message;
        try {
            message = Messages.decode(payload);
        } catch (IOException e) {
            return; // nothing can be matched to it; the request it answered times out
        } finally {
            port.release().accept(payload); // every message but a chunk's bytes is copied out of its buffer
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
