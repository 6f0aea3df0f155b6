package org.jvmreuse.pool.service;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.IntConsumer;
import java.util.function.IntFunction;
import java.util.function.IntPredicate;
import java.util.function.IntUnaryOperator;
import java.util.function.ToIntFunction;
import java.util.function.ToLongFunction;
import org.jvmreuse.pool.common.Faults;
import org.jvmreuse.pool.common.PoolLog;
import org.jvmreuse.pool.mpi.MpiTransport;
import org.jvmreuse.pool.mpi.Tags;
import org.jvmreuse.pool.os.PeerFiles;
import org.jvmreuse.pool.os.PeerMemory;

/**
 * What a library or service in a pool process gets of that process's MPI: its rank, the
 * service directory of the world, and {@link Tags#SERVICE} messages to and from any rank. It is
 * handed over as a map of JDK types (see docs/protocol.md, "Services"), so the code on the
 * other side needs no pool classes and may live in another class loader. Messages still travel
 * through the process's one communication thread: receivers are called on it and must not block.
 */
public final class ServicePort {
    public static final String RANK = "rank";
    public static final String DIRECTORY = "directory";
    public static final String SEND = "send";
    public static final String SEND_LENT = "sendLent";
    public static final String RECEIVER = "receiver";
    public static final String BUFFER = "buffer";
    public static final String RELEASE = "release";
    public static final String LOG = "log";
    /** This process's pid (Long). */
    public static final String PID = "pid";
    /** IntPredicate: whether a rank is a pool process on this host (one with a doorbell here). */
    public static final String LOCAL = "local";
    /** ToLongFunction of ByteBuffer: the address of a direct buffer's first byte. */
    public static final String ADDRESS = "address";
    /**
     * BiFunction of long[] {pid, address, offset, length} and byte[] to Integer: copies that many
     * bytes at that address of that process (on this host) into the array from that offset; the
     * count, or -errno (EPERM: not allowed here).
     */
    public static final String PEER_READ = "peerRead";
    /** ToIntFunction of String: opens that file read-only; its descriptor, or -errno. */
    public static final String OPEN_FILE = "openFile";
    /** IntUnaryOperator: closes that descriptor; 0 or -errno. */
    public static final String CLOSE_FILE = "closeFile";
    /**
     * ToIntFunction of long[] {pid, fd}: a descriptor in this process for the file open as fd in
     * that process (on this host), or -errno (EPERM: not allowed here; ENOSYS: before Linux 5.6).
     */
    public static final String TAKE_FILE = "takeFile";
    /**
     * BiFunction of long[] {fd, position, offset, length} and byte[] to Integer: reads up to that
     * many bytes at that position of the file into the array from that offset; the count (fewer
     * only at the end of the file), or -errno.
     */
    public static final String READ_FILE = "readFile";
    /** IntFunction of long[]: {device, inode} of the file open as that descriptor here, or null. */
    public static final String FILE_KEY = "fileKey";
    /**
     * Consumer of IntConsumer: sets who is told the rank of each pool process on this host that
     * ended (called on the communication thread; must not block).
     */
    public static final String LOST = "lost";

    private final MpiTransport transport;
    private final int rank;
    private volatile List<String> directory = List.of();
    private volatile BiConsumer<Integer, ByteBuffer> receiver;
    private volatile IntConsumer lost = rank -> { };

    public ServicePort(MpiTransport transport, int rank) {
        this.transport = transport;
        this.rank = rank;
        transport.setServiceReceiver(this::deliver);
        transport.setServiceLost(peer -> lost.accept(peer));
    }

    public int rank() {
        return rank;
    }

    /** Each world rank's announcement ("" for ranks without a service), once exchanged. */
    public void setDirectory(List<String> directory) {
        this.directory = List.copyOf(directory);
    }

    public List<String> directory() {
        return directory;
    }

    /**
     * Called on the communication thread for every service message. A receiver that throws
     * loses that message only; an error that may have damaged the JVM goes on to the transport,
     * whose handler decides (a slot retires).
     */
    private void deliver(int source, ByteBuffer payload) {
        BiConsumer<Integer, ByteBuffer> target = receiver;
        if (target == null) {
            PoolLog.get().warn("dropping a service message from rank " + source + ": nothing here receives them");
            transport.release(payload);
            return;
        }
        try {
            target.accept(source, payload);
        } catch (Throwable e) {
            if (Faults.damaging(e)) {
                throw e;
            }
            PoolLog.get().error("a service receiver failed on a message from rank " + source, e);
        }
    }

    /** The port as JDK types; {@code extra} entries are added (e.g. a service's options). */
    public Map<String, Object> asMap(Map<String, Object> extra) {
        Map<String, Object> map = new HashMap<>(extra);
        map.put(RANK, rank);
        map.put(DIRECTORY, directory);
        map.put(SEND, (BiConsumer<Integer, ByteBuffer>) (dest, payload) -> transport.send(dest, Tags.SERVICE, payload));
        map.put(SEND_LENT, (Function<Consumer<ByteBuffer>, BiConsumer<Integer, ByteBuffer[]>>) done -> (dest, pair) ->
                transport.send(dest, Tags.SERVICE, pair[0], pair[1], done));
        map.put(BUFFER, (IntFunction<ByteBuffer>) transport::buffer);
        map.put(RELEASE, (Consumer<ByteBuffer>) transport::release);
        map.put(RECEIVER, (Consumer<BiConsumer<Integer, ByteBuffer>>) r -> receiver = r);
        map.put(LOST, (Consumer<IntConsumer>) l -> lost = l);
        map.put(FILE_KEY, (IntFunction<long[]>) PeerFiles::key);
        map.put(LOG, (BiConsumer<String, String>) ServicePort::log);
        map.put(PID, ProcessHandle.current().pid());
        map.put(LOCAL, (IntPredicate) transport::isLocal);
        map.put(ADDRESS, (ToLongFunction<ByteBuffer>) PeerMemory::address);
        map.put(PEER_READ, (BiFunction<long[], byte[], Integer>) (at, into) ->
                PeerMemory.read(at[0], at[1], into, (int) at[2], (int) at[3]));
        map.put(OPEN_FILE, (ToIntFunction<String>) PeerFiles::open);
        map.put(CLOSE_FILE, (IntUnaryOperator) PeerFiles::close);
        map.put(TAKE_FILE, (ToIntFunction<long[]>) at -> PeerFiles.take(at[0], (int) at[1]));
        map.put(READ_FILE, (BiFunction<long[], byte[], Integer>) (at, into) ->
                PeerFiles.read((int) at[0], at[1], into, (int) at[2], (int) at[3]));
        return map;
    }

    private static void log(String level, String message) {
        switch (level) {
            case "error" -> PoolLog.get().error(message, null);
            case "warn" -> PoolLog.get().warn(message);
            default -> PoolLog.get().info(message);
        }
    }
}
