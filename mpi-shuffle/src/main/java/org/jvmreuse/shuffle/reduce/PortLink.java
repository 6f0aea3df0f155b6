package org.jvmreuse.shuffle.reduce;

import java.nio.ByteBuffer;
import org.jvmreuse.boot.LocalPeers;
import org.jvmreuse.boot.ServicePort;

/**
 * A {@link SlotLink} on a pool process's {@link ServicePort}: its rank, the service directory as
 * it was when the link was made, and service messages, received on the port's communication
 * thread. Direct chunks and lent files go through the port's {@link LocalPeers}, where it has
 * them (a pool's port does; one without, as an in-JVM loop over chunks, offers neither). Only a
 * slot (through {@link SlotLinkHook}) and its warm-up ({@link LoopbackShuffle}) make one: this
 * class names org.jvmreuse.boot types, which a reducer outside a pool does not have.
 */
final class PortLink extends SlotLink {
    private final ServicePort port;
    /** Null where the port has no same-host access. */
    private final LocalPeers peers;
    private final boolean directChunks;
    private final boolean lentFiles;

    private PortLink(ServicePort port, boolean directChunks, boolean lentFiles) {
        super(port.rank(), port.directory());
        this.port = port;
        this.peers = port.localPeers().orElse(null);
        this.directChunks = directChunks;
        this.lentFiles = lentFiles;
    }

    /** The link on {@code port}, receiving its service messages: direct chunks and lent files where the port has them. */
    static PortLink on(ServicePort port) {
        return on(port, true, true);
    }

    /**
     * As {@link #on(ServicePort)}, using of the port's same-host access only direct chunks or only
     * lent files (an in-JVM loop that plays a host whose kernel offers only the one).
     */
    static PortLink on(ServicePort port, boolean directChunks, boolean lentFiles) {
        PortLink link = new PortLink(port, directChunks, lentFiles);
        port.receiveWith(link::receive);
        return link;
    }

    @Override
    void send(int rank, ByteBuffer message) {
        port.send(rank, message);
    }

    @Override
    void giveBack(ByteBuffer buffer) {
        port.release(buffer);
    }

    @Override
    boolean sameHost(int server) {
        String mine = port.host(port.rank());
        String theirs = port.host(server);
        if (!mine.isEmpty() && !theirs.isEmpty()) {
            return mine.equals(theirs);
        }
        return peers != null && peers.isLocal(server);
    }

    @Override
    boolean copiesFrom(int server) {
        return directChunks && peers != null && peers.isLocal(server);
    }

    @Override
    boolean takesFilesFrom(int server) {
        return lentFiles && peers != null && peers.isLocal(server);
    }

    @Override
    int peerRead(long pid, long address, byte[] into, int at, int length) {
        return peers.peerRead(pid, address, into, at, length);
    }

    @Override
    int takeFrom(long pid, int fd) {
        return peers.takeFile(pid, fd);
    }

    @Override
    long[] fileKey(int fd) {
        return peers.fileKey(fd);
    }

    @Override
    int readFile(int fd, long position, byte[] into, int at, int length) {
        return peers.readFile(fd, position, into, at, length);
    }

    @Override
    void closeFile(int fd) {
        peers.closeFile(fd);
    }
}
