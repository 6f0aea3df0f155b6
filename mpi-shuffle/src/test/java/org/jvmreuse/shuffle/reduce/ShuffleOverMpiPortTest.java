package org.jvmreuse.shuffle.reduce;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.hadoop.mapreduce.security.token.JobTokenSecretManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jvmreuse.pool.mpi.Doorbells;
import org.jvmreuse.pool.mpi.InProcessMpi;
import org.jvmreuse.pool.mpi.Mpi;
import org.jvmreuse.pool.mpi.MpiTransport;
import org.jvmreuse.pool.mpi.Tags;
import org.jvmreuse.pool.service.MpiServicePort;
import org.jvmreuse.shuffle.protocol.Messages;
import org.jvmreuse.shuffle.protocol.RequestHash;
import org.jvmreuse.shuffle.server.JobSecrets;
import org.jvmreuse.shuffle.server.MapOutputFiles;
import org.jvmreuse.shuffle.server.ShuffleManager;

/**
 * The Shuffle Manager and a reducer over the pool's real contracts, in one JVM: each rank's
 * {@code ServicePort} is the pool's own {@link MpiServicePort} over its {@link MpiTransport}, whose
 * communication thread runs as in a pool process, on a rank of an {@link InProcessMpi} world
 * (pool-manager's test jar). The Shuffle Manager is started as a pool starts its service; the
 * reducer's {@link PortLink} is made on the other rank's port as a slot's run hook makes it, and
 * its {@link SegmentStream}s fetch real map output segments (Hadoop's file.out and index).
 * Every MPI send of the server's rank is recorded (a wrapper around its {@code Mpi}), so each case
 * tells which way the bytes went:
 * <ul>
 * <li>ranks on two hosts: no doorbell between them, so the port's {@code LocalPeers} calls the
 *     reducer remote and every byte comes in DATA messages, even to reads that ask for a lent file
 *     or direct chunks;
 * <li>ranks on one host (a doorbell between them, as PoolMain connects the slots of a host to its
 *     managers): the port's {@code LocalPeers} (the pool's JNI library: open, pidfd_getfd, pread,
 *     process_vm_readv, here on this very process) lends the map output's open file, and only
 *     73-byte FILE headers go over MPI; with lent files off, direct chunks (53-byte DIRECT
 *     headers, the bytes copied out of the server's mapping);
 * <li>a READ for another job's map output, signed with this job's secret, is refused.
 * </ul>
 */
class ShuffleOverMpiPortTest {
    private static final int SERVER_RANK = 0;
    private static final int REDUCER_RANK = 1;
    private static final int CHUNK = 4096;
    private static final int SHUFFLE_PORT = 13562;
    private static final byte[] SECRET = "job 7's shuffle secret".getBytes(StandardCharsets.US_ASCII);
    private static final String OTHER_JOB = "job_1700000000000_0008";
    private static final String OTHER_MAP = "attempt_1700000000000_0008_m_000003_0";
    private static final byte[] OTHER_SECRET = "job 8's shuffle secret".getBytes(StandardCharsets.US_ASCII);
    /** Partition sizes: empty, under a chunk, one chunk, several chunks and a tail, many chunks. */
    private static final int[] SIZES = {0, 10, CHUNK, 3 * CHUNK + 123, 40 * CHUNK + 7};

    @TempDir
    Path root;
    private final List<MpiTransport> transports = new ArrayList<>();
    private final List<Thread> loops = new ArrayList<>();
    private final List<Doorbells> doorbells = new ArrayList<>();
    private ShuffleManager manager;

    /** One MPI send of a rank: destination, tag, length and first byte (a message's kind). */
    private record Send(int dest, int tag, int count, byte first) {
    }

    /** A rank's {@link Mpi} that records every send and otherwise is the in-process rank. */
    private static final class Recording implements Mpi {
        final Mpi mpi;
        final List<Send> sends = Collections.synchronizedList(new ArrayList<>());

        Recording(Mpi mpi) {
            this.mpi = mpi;
        }

        /** The service messages this rank sent to {@code dest} so far. */
        List<Send> serviceTo(int dest) {
            synchronized (sends) {
                return sends.stream().filter(s -> s.dest == dest && s.tag == Tags.SERVICE).toList();
            }
        }

        @Override
        public Request iSend(ByteBuffer direct, int count, int dest, int tag) {
            sends.add(new Send(dest, tag, count, count > 0 ? direct.get(0) : -1));
            return mpi.iSend(direct, count, dest, tag);
        }

        @Override
        public String backend() {
            return mpi.backend();
        }

        @Override
        public String libraryVersion() {
            return mpi.libraryVersion();
        }

        @Override
        public int initThread(int required) {
            return mpi.initThread(required);
        }

        @Override
        public int rank() {
            return mpi.rank();
        }

        @Override
        public int size() {
            return mpi.size();
        }

        @Override
        public String processorName() {
            return mpi.processorName();
        }

        @Override
        public byte[][] allGather(byte[] mine) {
            return mpi.allGather(mine);
        }

        @Override
        public Request iRecv(ByteBuffer direct, int count, int source, int tag) {
            return mpi.iRecv(direct, count, source, tag);
        }

        @Override
        public Envelope iProbe(int source, int tag) {
            return mpi.iProbe(source, tag);
        }

        @Override
        public void recv(ByteBuffer direct, int count, int source, int tag) {
            mpi.recv(direct, count, source, tag);
        }

        @Override
        public void abort(int code) {
            mpi.abort(code);
        }

        @Override
        public void finish() {
            mpi.finish();
        }
    }

    /** The two ranks as started: the server's recorded MPI and the reducer's port. */
    private record World(Recording serverMpi, MpiServicePort reducerPort, MapOutputFiles files) {
    }

    @AfterEach
    void stop() throws Exception {
        if (manager != null) {
            manager.stop();
        }
        transports.forEach(MpiTransport::stop);
        for (Thread loop : loops) {
            loop.join(10_000);
            assertFalse(loop.isAlive(), "a communication loop did not end");
        }
        for (Doorbells bells : doorbells) {
            bells.close();
        }
    }

    /**
     * A world of a Shuffle Manager (rank 0, on {@code serverHost}) and a reducer (rank 1, on
     * {@code reducerHost}), each on its own MpiTransport and MpiServicePort, communication loops
     * running; the map outputs of job 7 and job 8 on the server's node, both jobs' secrets recorded.
     */
    private World start(String serverHost, String reducerHost) throws Exception {
        MapOutputFiles files = new MapOutputFiles(root.resolve("local"), 11, SIZES);
        JobSecrets.record(files.localDir, MapOutputFiles.JOB, SECRET);
        // Another job's map output on the same node, the same bytes.
        Path other = files.localDir.resolve("usercache/" + MapOutputFiles.USER
                + "/appcache/application_1700000000000_0008/output/" + OTHER_MAP);
        Files.createDirectories(other);
        Files.copy(files.data, other.resolve("file.out"));
        Files.copy(files.index, other.resolve("file.out.index"));
        JobSecrets.record(files.localDir, OTHER_JOB, OTHER_SECRET);
        Path conf = Files.createDirectories(root.resolve("conf"));
        Files.writeString(conf.resolve("yarn-site.xml"), "<configuration>"
                + "<property><name>yarn.nodemanager.local-dirs</name><value>" + files.localDir + "</value></property>"
                + "<property><name>yarn.nodemanager.hostname</name><value>" + serverHost + "</value></property>"
                + "</configuration>");

        List<InProcessMpi> world = InProcessMpi.world(List.of(serverHost, reducerHost));
        Recording serverMpi = new Recording(world.get(SERVER_RANK));
        Doorbells serverBells = new Doorbells();
        Doorbells reducerBells = new Doorbells();
        doorbells.add(serverBells);
        doorbells.add(reducerBells);
        boolean sameHost = world.get(SERVER_RANK).processorName().equals(world.get(REDUCER_RANK).processorName());
        if (sameHost) {
            // As PoolMain connects them: the manager admits the slot's doorbell with the key the
            // slot sent it (over MPI there), the slot keeps the other end.
            String key = Doorbells.newKey();
            serverBells.expect(REDUCER_RANK, key);
            try (ServerSocketChannel listener = ServerSocketChannel.open()) {
                listener.bind(null);
                SocketChannel slotSide = SocketChannel.open(listener.getLocalAddress());
                assertTrue(serverBells.admit(REDUCER_RANK, key, listener.accept()));
                reducerBells.attach(SERVER_RANK, slotSide);
            }
        }
        MpiTransport serverTransport = new MpiTransport(serverMpi, serverBells);
        MpiTransport reducerTransport = new MpiTransport(world.get(REDUCER_RANK), reducerBells);
        MpiServicePort serverPort = new MpiServicePort(serverTransport, SERVER_RANK);
        MpiServicePort reducerPort = new MpiServicePort(reducerTransport, REDUCER_RANK);
        run(serverTransport, sameHost);
        run(reducerTransport, sameHost);

        manager = new ShuffleManager();
        String announced = manager.start(serverPort, Map.of("conf-dir", conf.toString(), "threads", "2"), serverHost, 0);
        List<String> directory = List.of(announced, "");
        serverPort.setDirectory(directory);
        reducerPort.setDirectory(directory);
        assertEquals(sameHost, serverPort.localPeers().orElseThrow().isLocal(REDUCER_RANK));
        assertEquals(sameHost, reducerPort.localPeers().orElseThrow().isLocal(SERVER_RANK));
        return new World(serverMpi, reducerPort, files);
    }

    /** Runs {@code transport}'s communication loop on a thread of its own, as a pool process does. */
    private void run(MpiTransport transport, boolean everyPeerRings) {
        MpiTransport.Handler handler = new MpiTransport.Handler() {
            @Override
            public void onMessage(int source, int tag, byte[] payload) {
                throw new AssertionError("only service messages go between these ranks, got tag " + tag);
            }

            @Override
            public void onPeerLost(int rank) {
            }

            @Override
            public boolean everyPeerRings() {
                return everyPeerRings;
            }
        };
        Thread loop = new Thread(() -> {
            try {
                transport.run(handler);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        loop.setDaemon(true);
        transports.add(transport);
        loops.add(loop);
        loop.start();
    }

    /** The HMAC that job {@code job}'s reducers, holding {@code secret}, put in a READ of {@code map}'s partition. */
    private static String hash(byte[] secret, String job, String map, int reduce) {
        return RequestHash.of(JobTokenSecretManager.createSecretKey(secret), SHUFFLE_PORT, job, reduce, map);
    }

    private static Messages.Read read(Messages.Mode mode, String job, String map, int reduce, boolean direct, boolean file,
                                      byte[] secret) {
        return new Messages.Read(0, mode, MapOutputFiles.USER, job, map, reduce, 0, CHUNK, direct, file, -1,
                hash(secret, job, map, reduce));
    }

    /** The whole segment {@code read} asks for, from the server's rank, checked to end where its length says. */
    private static byte[] fetch(SlotLink link, Messages.Read read, int window, long expected) throws IOException {
        try (SegmentStream stream = new SegmentStream(link, SERVER_RANK, read, window, 10_000, 3000, expected).open()) {
            byte[] all = stream.readAllBytes();
            assertEquals(-1, stream.read());
            assertEquals(stream.segmentLength(), all.length);
            return all;
        }
    }

    private static long sum(int[] sizes) {
        long sum = 0;
        for (int size : sizes) {
            sum += size;
        }
        return sum;
    }

    private static long nonEmpty(int[] sizes) {
        return java.util.Arrays.stream(sizes).filter(s -> s > 0).count();
    }

    /** Waits (up to 5 s) until no descriptor of this process names {@code file}; those left. */
    private static List<Path> descriptorsOf(Path file) throws Exception {
        List<Path> left = List.of();
        for (long deadline = System.nanoTime() + 5_000_000_000L; System.nanoTime() < deadline; Thread.sleep(10)) {
            try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
                left = fds.filter(fd -> {
                    try {
                        return Files.readSymbolicLink(fd).equals(file);
                    } catch (IOException e) {
                        return false; // closed meanwhile
                    }
                }).toList();
            }
            if (left.isEmpty()) {
                break;
            }
        }
        return left;
    }

    /**
     * Between hosts every byte travels in MPI messages: the link offers neither direct chunks nor
     * lent files, and reads that ask for them anyway get DATA replies with the bytes, in both
     * modes and windows. The server sent at least every segment's bytes over MPI and no FILE or
     * DIRECT header.
     */
    @Test
    void betweenHostsEveryByteComesInMpiMessages() throws Exception {
        World world = start("node-a", "node-b");
        SlotLink link = PortLink.on(world.reducerPort);
        assertEquals(SERVER_RANK, RankDirectory.of(link.directory()).rankOf("node-a:" + SHUFFLE_PORT));
        assertFalse(link.canTakeFiles(SERVER_RANK), "no lent files from another host");
        assertFalse(link.canCopyDirect(SERVER_RANK), "no direct chunks from another host");
        int fetched = 0;
        long bytes = 0;
        for (Messages.Mode mode : Messages.Mode.values()) {
            for (int window : new int[] {1, 4}) {
                for (int r = 0; r < SIZES.length; r++) {
                    // A reducer that (wrongly) asks for a lent file and direct chunks: the server
                    // decides by its own port that this rank is not on its host.
                    Messages.Read read = read(mode, MapOutputFiles.JOB, MapOutputFiles.MAP, r, true, true, SECRET);
                    assertArrayEquals(world.files.partitions[r], fetch(link, read, window, 2L * CHUNK),
                            mode + " window " + window + " partition " + r);
                    fetched++;
                    bytes += SIZES[r];
                }
            }
        }
        assertEquals(4 * SIZES.length, fetched);
        List<Send> sent = world.serverMpi.serviceTo(REDUCER_RANK);
        long sentBytes = sent.stream().mapToLong(Send::count).sum();
        assertTrue(sentBytes >= bytes, "the segments' " + bytes + " bytes went over MPI: " + sentBytes + " bytes sent");
        assertEquals(List.of(), sent.stream().filter(s -> s.count == Messages.Data.FILE_HEADER && s.first == Messages.FILE
                || s.count == Messages.Data.DIRECT_HEADER && s.first == Messages.DIRECT).toList(),
                "nothing lent to a rank on another host");
        assertTrue(sent.stream().anyMatch(s -> s.count == CHUNK), "whole chunks went as messages");
        assertEquals(List.of(), Mappings.of(world.files.data), "every chunk is unmapped once MPI has sent it");
    }

    /**
     * On one host the port's same-host access is real: the Shuffle Manager lends the map output's
     * open file, the reducer takes it out of the server's process (pidfd_getfd, here on itself)
     * and reads each segment whole; only headers go over MPI, one FILE per non-empty segment, and
     * every lent descriptor is closed again on both sides.
     */
    @Test
    void onOneHostTheReducerReadsTheServersLentFile() throws Exception {
        World world = start("node-a", "node-a");
        SlotLink link = PortLink.on(world.reducerPort);
        assertTrue(link.canTakeFiles(SERVER_RANK), "the port offers lent files from a rank on this host");
        for (int r = 0; r < SIZES.length; r++) {
            Messages.Read read = read(Messages.Mode.CONCURRENT, MapOutputFiles.JOB, MapOutputFiles.MAP, r,
                    link.canCopyDirect(SERVER_RANK), link.canTakeFiles(SERVER_RANK), SECRET);
            assertArrayEquals(world.files.partitions[r], fetch(link, read, 4, 0), "partition " + r);
        }
        assertTrue(link.canTakeFiles(SERVER_RANK), "the kernel let the reducer take the server's files");
        List<Send> sent = world.serverMpi.serviceTo(REDUCER_RANK);
        assertEquals(nonEmpty(SIZES), sent.stream().filter(s -> s.first == Messages.FILE).count(),
                "one FILE reply per non-empty segment: " + sent);
        assertTrue(sent.stream().allMatch(s -> s.count <= Messages.Data.FILE_HEADER), "no bytes over MPI: " + sent);
        assertTrue(sent.stream().mapToLong(Send::count).sum() < sum(SIZES));
        assertEquals(List.of(), descriptorsOf(world.files.data), "every lent file is closed on both sides");
    }

    /**
     * On one host with lent files off (a kernel without pidfd_getfd), the reducer copies each
     * chunk out of the server's mapping (process_vm_readv, here on itself): only DIRECT headers
     * go over MPI, one per chunk, and every mapping goes once copied or the stream closes.
     */
    @Test
    void onOneHostWithoutLentFilesTheReducerCopiesDirectChunks() throws Exception {
        World world = start("node-a", "node-a");
        SlotLink link = PortLink.on(world.reducerPort, true, false);
        assertTrue(link.canCopyDirect(SERVER_RANK));
        assertFalse(link.canTakeFiles(SERVER_RANK));
        long chunks = 0;
        for (int r = 0; r < SIZES.length; r++) {
            Messages.Read read = read(Messages.Mode.CONCURRENT, MapOutputFiles.JOB, MapOutputFiles.MAP, r,
                    link.canCopyDirect(SERVER_RANK), link.canTakeFiles(SERVER_RANK), SECRET);
            assertArrayEquals(world.files.partitions[r], fetch(link, read, 4, 0), "partition " + r);
            chunks += (SIZES[r] + CHUNK - 1) / CHUNK;
        }
        List<Send> sent = world.serverMpi.serviceTo(REDUCER_RANK);
        assertEquals(chunks, sent.stream().filter(s -> s.first == Messages.DIRECT && s.count == Messages.Data.DIRECT_HEADER)
                .count(), "one DIRECT reply per chunk");
        assertTrue(sent.stream().allMatch(s -> s.count <= Messages.Data.DIRECT_HEADER), "no bytes over MPI: " + sent);
        assertEquals(List.of(), Mappings.of(world.files.data), "every direct chunk is unmapped once released");
    }

    /**
     * A reducer of job 7 cannot read job 8's map output on the same node with job 7's secret: the
     * Shuffle Manager answers with a FAILURE that names the missing HMAC, which the stream turns
     * into an IOException. Job 8's own reducers (its secret) get the same output.
     */
    @Test
    void aReadOfAnotherJobsOutputIsRefused() throws Exception {
        World world = start("node-a", "node-b");
        SlotLink link = PortLink.on(world.reducerPort);
        IOException refused = assertThrows(IOException.class, () -> fetch(link,
                read(Messages.Mode.CONCURRENT, OTHER_JOB, OTHER_MAP, 3, false, false, SECRET), 4, 0));
        assertTrue(refused.getMessage().contains("does not carry the shuffle HMAC of " + OTHER_JOB), refused.getMessage());
        assertEquals(1, world.serverMpi.serviceTo(REDUCER_RANK).stream().filter(s -> s.first == Messages.FAILURE).count());
        assertArrayEquals(world.files.partitions[3],
                fetch(link, read(Messages.Mode.CONCURRENT, OTHER_JOB, OTHER_MAP, 3, false, false, OTHER_SECRET), 4, 0),
                "with its own job's secret");
    }
}
