package org.jvmreuse.pool.service;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import org.jvmreuse.boot.LocalPeers;
import org.jvmreuse.boot.ServicePort;
import org.jvmreuse.pool.common.Faults;
import org.jvmreuse.pool.common.PoolLog;
import org.jvmreuse.pool.mpi.MpiTransport;
import org.jvmreuse.pool.mpi.Tags;
import org.jvmreuse.pool.os.PeerFiles;
import org.jvmreuse.pool.os.PeerMemory;

/**
 * A pool process's MPI as the services and libraries it hosts get it ({@link ServicePort}): its
 * rank, the service directory of the world, and {@link Tags#SERVICE} messages to and from any
 * rank, with same-host reads of other pool processes' memory and files ({@link LocalPeers}): of
 * the ranks whose announced host name ({@link #host}) is this process's, those with a doorbell here.
 * Messages still travel through the process's one communication thread: receivers are called on
 * it and must not block.
 */
public final class MpiServicePort implements ServicePort {
    private final MpiTransport transport;
    private final int rank;
    private final LocalPeers localPeers;
    private volatile List<String> directory = List.of();
    /** Each world rank's host name, as gathered at start-up (empty: not known). */
    private volatile List<String> hosts = List.of();
    private volatile BiConsumer<Integer, ByteBuffer> receiver;
    private volatile IntConsumer lost = rank -> { };

    public MpiServicePort(MpiTransport transport, int rank) {
        this.transport = transport;
        this.rank = rank;
        this.localPeers = new HostPeers();
        transport.setServiceReceiver(this::deliver);
        transport.setServiceLost(peer -> lost.accept(peer));
    }

    @Override
    public int rank() {
        return rank;
    }

    /** Each world rank's announcement ("" for ranks without a service), once exchanged. */
    public void setDirectory(List<String> directory) {
        this.directory = List.copyOf(directory);
    }

    @Override
    public List<String> directory() {
        return directory;
    }

    /** Each world rank's short host name (MPI_Get_processor_name up to the first dot), indexed by rank. */
    public void setHosts(List<String> hosts) {
        this.hosts = List.copyOf(hosts);
    }

    @Override
    public String host(int rank) {
        List<String> known = hosts;
        return rank >= 0 && rank < known.size() ? known.get(rank) : "";
    }

    /** False only if both host names are known and differ: then the two ranks are on different hosts. */
    private boolean mayShareHost(int other) {
        String mine = host(rank);
        String theirs = host(other);
        return mine.isEmpty() || theirs.isEmpty() || mine.equals(theirs);
    }

    @Override
    public void send(int dest, ByteBuffer message) {
        transport.send(dest, Tags.SERVICE, message);
    }

    @Override
    public void sendLent(int dest, ByteBuffer header, ByteBuffer body, Consumer<ByteBuffer> done) {
        transport.send(dest, Tags.SERVICE, header, body, done);
    }

    @Override
    public ByteBuffer buffer(int capacity) {
        return transport.buffer(capacity);
    }

    @Override
    public void release(ByteBuffer buffer) {
        transport.release(buffer);
    }

    @Override
    public void receiveWith(BiConsumer<Integer, ByteBuffer> receiver) {
        this.receiver = receiver;
    }

    @Override
    public void lostWith(IntConsumer lost) {
        this.lost = lost;
    }

    @Override
    public Optional<LocalPeers> localPeers() {
        return Optional.of(localPeers);
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

    @Override
    public void log(String level, String message) {
        switch (level) {
            case "error" -> PoolLog.get().error(message, null);
            case "warn" -> PoolLog.get().warn(message);
            default -> PoolLog.get().info(message);
        }
    }

    /**
     * Other pool processes of this host, through the slot's JNI library. A rank is local if it
     * announced this host's name and has a doorbell here: a doorbell alone is not trusted, since
     * separate hosts on one kernel (network namespaces, containers) can still read each other's
     * memory and files, and a wrong "same host" would not fail by itself.
     */
    private final class HostPeers implements LocalPeers {
        @Override
        public long pid() {
            return ProcessHandle.current().pid();
        }

        @Override
        public boolean isLocal(int rank) {
            return mayShareHost(rank) && transport.isLocal(rank);
        }

        @Override
        public long address(ByteBuffer direct) {
            return PeerMemory.address(direct);
        }

        @Override
        public int peerRead(long pid, long address, byte[] into, int offset, int length) {
            return PeerMemory.read(pid, address, into, offset, length);
        }

        @Override
        public int openFile(String path) {
            return PeerFiles.open(path);
        }

        @Override
        public int closeFile(int fd) {
            return PeerFiles.close(fd);
        }

        @Override
        public int takeFile(long pid, int fd) {
            return PeerFiles.take(pid, fd);
        }

        @Override
        public int readFile(int fd, long position, byte[] into, int offset, int length) {
            return PeerFiles.read(fd, position, into, offset, length);
        }

        @Override
        public long[] fileKey(int fd) {
            return PeerFiles.key(fd);
        }
    }
}
