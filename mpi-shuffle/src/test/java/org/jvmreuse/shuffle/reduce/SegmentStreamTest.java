package org.jvmreuse.shuffle.reduce;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import java.util.function.IntFunction;
import java.util.function.UnaryOperator;
import org.apache.hadoop.fs.ChecksumException;
import org.apache.hadoop.io.IOUtils;
import org.apache.hadoop.mapred.IFileInputStream;
import org.apache.hadoop.mapred.IFileOutputStream;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.security.token.JobTokenSecretManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jvmreuse.boot.LocalPeers;
import org.jvmreuse.boot.ServicePort;
import org.jvmreuse.shuffle.protocol.Messages;
import org.jvmreuse.shuffle.protocol.RequestHash;
import org.jvmreuse.shuffle.server.JobSecrets;
import org.jvmreuse.shuffle.server.MapOutputFiles;
import org.jvmreuse.shuffle.server.ShuffleManager;

/**
 * The reducer's segment reads against a real Shuffle Manager over real map output files, with
 * the pool's MPI replaced by two message threads (one per process, as the pool's communication
 * threads are; each process's {@link ServicePort} a {@link TestPort}), and, for direct chunks and
 * lent files, the copy out of the server's process or the read of its file by one within this JVM
 * ({@link LoopbackPeers}). The pool's real port and transport, over an in-process MPI world, are
 * {@link ShuffleOverMpiPortTest}'s; real MPI is covered by the Hadoop integration tests.
 */
class SegmentStreamTest {
    private static final int SERVER_RANK = 0;
    private static final int CHUNK = 4096;
    /** The NodeManager's default shuffle port, which the Shuffle Manager stands in for here. */
    private static final int SHUFFLE_PORT = 13562;
    /** The job's shuffle secret, as its NodeManager records it for the Shuffle Manager. */
    private static final byte[] SECRET = "the job's shuffle secret".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    @TempDir
    Path root;
    private final ExecutorService serverThread = Executors.newSingleThreadExecutor();
    private final ExecutorService clientThread = Executors.newSingleThreadExecutor();
    private final ScheduledExecutorService delayed = Executors.newSingleThreadScheduledExecutor();
    /** Messages the reducer sent to ranks where no server runs (a Shuffle Manager that is gone). */
    private final List<Object> sentToNobody = Collections.synchronizedList(new java.util.ArrayList<>());
    private BiConsumer<Integer, ByteBuffer> serverReceiver;
    /** Who the server told the port to tell of ranks whose process ended. */
    private IntConsumer serverLost;
    private BiConsumer<Integer, ByteBuffer> clientReceiver;
    /** Buffers the server took for replies and nobody has given back yet. */
    private final Set<ByteBuffer> taken = Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));
    private final Set<ByteBuffer> givenBack = Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));
    private final AtomicInteger givenTwice = new AtomicInteger();
    /** Same-host access within this JVM, as the ports' and the tests' own reads use it. */
    private static final LoopbackPeers PEERS = new LoopbackPeers();
    /** The in-JVM read of a lent file. */
    private static final Read LENT_FILE = (fd, position, into, offset, length) -> PEERS.readFile((int) fd, position, into, offset,
            length);
    /** The reducer's copy out of the server's memory (pid, address); null: the port offers no direct chunks. */
    private Read peerRead;
    /** The reducer's read of a lent file (descriptor, position); null: the port offers no lent files. */
    private Read readFile;
    /** Replaces the port's take of a lent file (null: the in-JVM one). */
    private Take takeFile;
    /** READ messages the server received. */
    private final AtomicInteger reads = new AtomicInteger();
    /** The Shuffle Manager {@link #connect} started. */
    private ShuffleManager manager;

    @AfterEach
    void stop() {
        if (manager != null) {
            manager.stop();
        }
        serverThread.shutdownNow();
        clientThread.shutdownNow();
        delayed.shutdownNow();
    }

    private void giveBack(ByteBuffer buffer) {
        if (!givenBack.add(buffer)) {
            givenTwice.incrementAndGet();
        }
        taken.remove(buffer);
    }

    private IntFunction<ByteBuffer> takeBuffer() {
        return size -> {
            ByteBuffer buffer = ByteBuffer.allocateDirect(size);
            taken.add(buffer);
            return buffer;
        };
    }

    /** A read of {@code length} bytes at {@code position} of {@code source} into {@code into} at {@code offset}: the count, or -errno. */
    private interface Read {
        int read(long source, long position, byte[] into, int offset, int length);
    }

    /** Takes descriptor {@code fd} of process {@code pid}: a descriptor here, or -errno. */
    private interface Take {
        int take(long pid, int fd);
    }

    /** One process's MPI in this test: what it sends goes to {@code send} or {@code sendLent}. */
    private static final class TestPort implements ServicePort {
        /** Sends a header and its lent body as one unit, then gives the body back through the consumer. */
        interface SendLent {
            void send(int dest, ByteBuffer header, ByteBuffer body, Consumer<ByteBuffer> done);
        }

        private final int rank;
        private final List<String> directory;
        private final BiConsumer<Integer, ByteBuffer> send;
        private final SendLent sendLent;
        private final IntFunction<ByteBuffer> buffer;
        private final Consumer<ByteBuffer> release;
        private final Consumer<BiConsumer<Integer, ByteBuffer>> receiver;
        private final Consumer<IntConsumer> lost;
        private final LocalPeers peers;

        TestPort(int rank, List<String> directory, BiConsumer<Integer, ByteBuffer> send, SendLent sendLent,
                 IntFunction<ByteBuffer> buffer, Consumer<ByteBuffer> release, Consumer<BiConsumer<Integer, ByteBuffer>> receiver,
                 Consumer<IntConsumer> lost, LocalPeers peers) {
            this.rank = rank;
            this.directory = directory;
            this.send = send;
            this.sendLent = sendLent;
            this.buffer = buffer;
            this.release = release;
            this.receiver = receiver;
            this.lost = lost;
            this.peers = peers;
        }

        @Override
        public int rank() {
            return rank;
        }

        @Override
        public List<String> directory() {
            return directory;
        }

        @Override
        public void send(int dest, ByteBuffer message) {
            send.accept(dest, message);
        }

        @Override
        public void sendLent(int dest, ByteBuffer header, ByteBuffer body, Consumer<ByteBuffer> done) {
            sendLent.send(dest, header, body, done);
        }

        @Override
        public ByteBuffer buffer(int capacity) {
            return buffer.apply(capacity);
        }

        @Override
        public void release(ByteBuffer message) {
            release.accept(message);
        }

        @Override
        public void receiveWith(BiConsumer<Integer, ByteBuffer> receiver) {
            this.receiver.accept(receiver);
        }

        @Override
        public void lostWith(IntConsumer lost) {
            this.lost.accept(lost);
        }

        @Override
        public void log(String level, String message) {
        }

        @Override
        public Optional<LocalPeers> localPeers() {
            return Optional.ofNullable(peers);
        }
    }

    /** Starts a Shuffle Manager on {@code files} and attaches the slot link; {@code wire} may alter replies. */
    private SlotLink connect(MapOutputFiles files, UnaryOperator<ByteBuffer> wire) throws Exception {
        return connect(files, wire, 0);
    }

    /** As above; DATA replies reach the reducer {@code dataDelayMillis} late (a busy server). */
    private SlotLink connect(MapOutputFiles files, UnaryOperator<ByteBuffer> wire, long dataDelayMillis) throws Exception {
        JobSecrets.record(files.localDir, MapOutputFiles.JOB, SECRET);
        Path conf = Files.createDirectories(root.resolve("conf"));
        Files.writeString(conf.resolve("yarn-site.xml"), "<configuration><property><name>yarn.nodemanager.local-dirs</name>"
                + "<value>" + files.localDir + "</value></property></configuration>");
        BiConsumer<Integer, ByteBuffer> serverSend = (dest, payload) -> {
            Runnable deliver = () -> clientThread.execute(() -> clientReceiver.accept(SERVER_RANK, wire.apply(payload)));
            if (dataDelayMillis > 0 && payload.get(0) == Messages.DATA) {
                delayed.schedule(deliver, dataDelayMillis, TimeUnit.MILLISECONDS);
            } else {
                deliver.run();
            }
        };
        // As MPI does: the chunk lands in a buffer of the reducer's process, then the server gets its own back.
        TestPort.SendLent serverSendLent = (dest, header, body, done) -> {
            ByteBuffer received = takeBuffer().apply(body.limit());
            received.put(0, body, 0, body.limit());
            done.accept(body);
            Runnable deliver = () -> clientThread.execute(() -> {
                clientReceiver.accept(SERVER_RANK, wire.apply(header));
                clientReceiver.accept(SERVER_RANK, wire.apply(received));
            });
            if (dataDelayMillis > 0) {
                delayed.schedule(deliver, dataDelayMillis, TimeUnit.MILLISECONDS);
            } else {
                deliver.run();
            }
        };
        boolean local = peerRead != null || readFile != null;
        manager = new ShuffleManager();
        String announced = manager.start(new TestPort(SERVER_RANK, List.of(), serverSend, serverSendLent, takeBuffer(),
                        this::giveBack, r -> serverReceiver = r, l -> serverLost = l, local ? PEERS : null),
                Map.of("conf-dir", conf.toString(), "threads", "3"), "localhost", 0);
        BiConsumer<Integer, ByteBuffer> slotSend = (dest, payload) -> {
            if (dest == SERVER_RANK) {
                if (payload.get(0) == Messages.READ) {
                    reads.incrementAndGet();
                }
                serverThread.execute(() -> serverReceiver.accept(1, payload));
            } else {
                try {
                    sentToNobody.add(Messages.decode(payload));
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }
        };
        // The reducer's reads and takes as this test sets them.
        LoopbackPeers slotPeers = new LoopbackPeers() {
            @Override
            public int peerRead(long pid, long address, byte[] into, int offset, int length) {
                return peerRead.read(pid, address, into, offset, length);
            }

            @Override
            public int readFile(int fd, long position, byte[] into, int offset, int length) {
                return readFile.read(fd, position, into, offset, length);
            }

            @Override
            public int takeFile(long pid, int fd) {
                return takeFile != null ? takeFile.take(pid, fd) : super.takeFile(pid, fd);
            }
        };
        TestPort slot = new TestPort(1, List.of(announced, ""), slotSend, (dest, header, body, done) -> {
            throw new UnsupportedOperationException("the reducer lends nothing");
        }, takeBuffer(), this::giveBack, r -> clientReceiver = r, l -> { }, local ? slotPeers : null);
        SlotLink.attach(PortLink.on(slot, peerRead != null, readFile != null));
        RankDirectory directory = RankDirectory.of(SlotLink.current().directory());
        assertEquals(SERVER_RANK, directory.rankOf(java.net.InetAddress.getLocalHost().getHostName() + ":13562"));
        assertEquals(-1, directory.rankOf(java.net.InetAddress.getLocalHost().getHostName() + ":13563"));
        assertEquals(-1, directory.rankOf("no-such-host.invalid:13562"));
        return SlotLink.current();
    }

    /**
     * Waits (up to 5 s) until no reply buffer has been out for 200 ms, so that replies still on
     * their way are counted: a closed stream's window may still bring replies after a first
     * moment with none out.
     */
    private void awaitRepliesInFlight() throws InterruptedException {
        long deadline = System.nanoTime() + 5_000_000_000L;
        long quietSince = System.nanoTime();
        while (System.nanoTime() < deadline) {
            if (!taken.isEmpty()) {
                quietSince = System.nanoTime();
            } else if (System.nanoTime() - quietSince >= 200_000_000L) {
                return;
            }
            Thread.sleep(10);
        }
    }

    private static Messages.Read read(Messages.Mode mode, String map, int reduce) {
        return new Messages.Read(0, mode, MapOutputFiles.USER, MapOutputFiles.JOB, map, reduce, 0, CHUNK, false, false, -1,
                hash(map, reduce));
    }

    private static Messages.Read direct(SlotLink link, String map, int reduce) {
        return new Messages.Read(0, Messages.Mode.CONCURRENT, MapOutputFiles.USER, MapOutputFiles.JOB, map, reduce, 0, CHUNK,
                link.canCopyDirect(SERVER_RANK), link.canTakeFiles(SERVER_RANK), -1, hash(map, reduce));
    }

    /** The HMAC of the job's reducers for partition {@code reduce} of {@code map}. */
    private static String hash(String map, int reduce) {
        return RequestHash.of(JobTokenSecretManager.createSecretKey(SECRET), SHUFFLE_PORT, MapOutputFiles.JOB, reduce, map);
    }

    /** Waits (up to 5 s) until every lent file is closed on both sides; the descriptors left open. */
    private static int openDescriptors() throws InterruptedException {
        for (long deadline = System.nanoTime() + 5_000_000_000L; System.nanoTime() < deadline; Thread.sleep(10)) {
            if (LoopbackPeers.openDescriptors() == 0) {
                break;
            }
        }
        return LoopbackPeers.openDescriptors();
    }

    private static byte[] readAll(SegmentStream stream) throws IOException {
        byte[] all = stream.readAllBytes();
        assertEquals(-1, stream.read());
        return all;
    }

    @Test
    void segmentsArriveWholeInBothModesAndWindows() throws Exception {
        MapOutputFiles files = new MapOutputFiles(root.resolve("disk"), 5, 0, 10, CHUNK, 3 * CHUNK + 123);
        SlotLink link = connect(files, p -> p);
        // Expecting 10 chunks asks ahead past the end of every partition but the last (0, 10,
        // CHUNK and 3 * CHUNK + 123 bytes): those empty replies must neither show nor leak.
        for (Messages.Mode mode : Messages.Mode.values()) {
            for (int window : new int[] {1, 4}) {
                for (long expected : new long[] {0, 10L * CHUNK}) {
                    for (int r = 0; r < files.partitions.length; r++) {
                        String what = mode + " window " + window + " expecting " + expected + " partition " + r;
                        try (SegmentStream s = new SegmentStream(link, SERVER_RANK, read(mode, MapOutputFiles.MAP, r), window,
                                10_000, 3000, expected).open()) {
                            assertEquals(files.partitions[r].length, s.segmentLength(), what);
                            assertEquals(2L * files.partitions[r].length, s.rawLength(), what);
                            assertArrayEquals(files.partitions[r], readAll(s), what);
                        }
                    }
                }
            }
        }
        awaitRepliesInFlight();
        assertEquals(Set.of(), taken, "every chunk buffer is given back once read");
        assertEquals(0, givenTwice.get());
        assertEquals(List.of(), Files.readAllLines(Path.of("/proc/self/maps")).stream()
                .filter(line -> line.endsWith(files.data.toString())).toList(), "every chunk is unmapped once sent");
    }

    @Test
    void aStreamClosedEarlyGivesBackTheChunksStillComing() throws Exception {
        MapOutputFiles files = new MapOutputFiles(root.resolve("disk"), 9, 10 * CHUNK);
        SlotLink link = connect(files, p -> p);
        try (SegmentStream s = new SegmentStream(link, SERVER_RANK, read(Messages.Mode.CONCURRENT, MapOutputFiles.MAP, 0),
                4, 10_000, 3000, 0).open()) {
            assertEquals(10, s.read(new byte[10]));
        }
        awaitRepliesInFlight();
        assertEquals(Set.of(), taken, "chunks that came after the stream closed are given back too");
        assertTrue(givenBack.size() >= 2, "the first chunk and the window's later ones: " + givenBack.size());
        assertEquals(0, givenTwice.get());
    }

    @Test
    void whatTheServerCannotServeIsAnIOExceptionWithTheReason() throws Exception {
        MapOutputFiles files = new MapOutputFiles(root.resolve("disk"), 6, 100);
        SlotLink link = connect(files, p -> p);
        IOException e = assertThrows(IOException.class, () -> new SegmentStream(link, SERVER_RANK,
                read(Messages.Mode.CONCURRENT, "attempt_1700000000000_0007_m_000099_0", 0), 4, 10_000, 3000, 0).open());
        assertTrue(e.getMessage().contains("no map output"), e.getMessage());
        Files.writeString(files.data, "short");
        e = assertThrows(IOException.class, () -> new SegmentStream(link, SERVER_RANK,
                read(Messages.Mode.CONCURRENT, MapOutputFiles.MAP, 0), 4, 10_000, 3000, 0).open());
        assertTrue(e.getMessage().contains("truncated"), e.getMessage());
    }

    /**
     * No checksum per chunk: a chunk damaged on the way reaches Hadoop's IFileInputStream, whose
     * checksum over the whole segment fails the fetch, as MapOutput.shuffle reads it.
     */
    @Test
    void aChunkDamagedOnTheWayFailsTheIFileChecksum() throws Exception {
        MapOutputFiles files = new MapOutputFiles(root.resolve("disk"), 7, 3 * CHUNK);
        try (IFileOutputStream ifile = new IFileOutputStream(Files.newOutputStream(files.data))) {
            ifile.write(files.partitions[0], 0, 3 * CHUNK - 4); // then its CRC32, 4 bytes
        }
        assertEquals(3 * CHUNK, Files.size(files.data));
        AtomicBoolean damage = new AtomicBoolean();
        SlotLink link = connect(files, p -> {
            if (damage.get() && p.limit() == CHUNK) { // a chunk's bytes, not a header
                p.put(CHUNK / 2, (byte) (p.get(CHUNK / 2) ^ 0x10));
            }
            return p;
        });
        byte[] memory = new byte[3 * CHUNK - 4];
        try (SegmentStream s = new SegmentStream(link, SERVER_RANK, read(Messages.Mode.CONCURRENT, MapOutputFiles.MAP, 0),
                4, 10_000, 3000, 0).open()) {
            IOUtils.readFully(new IFileInputStream(s, s.segmentLength(), new JobConf(false)), memory, 0, memory.length);
        }
        assertArrayEquals(Arrays.copyOf(files.partitions[0], memory.length), memory, "undamaged, the checksum holds");
        damage.set(true);
        assertThrows(ChecksumException.class, () -> {
            try (SegmentStream s = new SegmentStream(link, SERVER_RANK, read(Messages.Mode.CONCURRENT, MapOutputFiles.MAP, 0),
                    4, 10_000, 3000, 0).open()) {
                IOUtils.readFully(new IFileInputStream(s, s.segmentLength(), new JobConf(false)), memory, 0, memory.length);
            }
        });
    }

    /**
     * Between two processes of one host the reducer copies each chunk out of the server's
     * mapping itself: segments arrive whole, no chunk comes as a message, and every mapping goes
     * once the reducer has copied it or closed its stream, also one closed early.
     */
    @Test
    void directChunksArriveWholeAndEveryMappingGoesOnceCopiedOrTheStreamCloses() throws Exception {
        MapOutputFiles files = new MapOutputFiles(root.resolve("disk"), 13, 0, 10, CHUNK, 3 * CHUNK + 123, 9 * CHUNK);
        AtomicInteger copies = new AtomicInteger();
        peerRead = (pid, address, into, offset, length) -> {
            copies.incrementAndGet();
            return PEERS.peerRead(pid, address, into, offset, length);
        };
        SlotLink link = connect(files, p -> {
            assertTrue(p.limit() <= Messages.Data.DIRECT_HEADER, "a chunk came as a message of " + p.limit() + " bytes");
            return p;
        });
        assertTrue(link.canCopyDirect(SERVER_RANK));
        for (long expected : new long[] {0, 10L * CHUNK}) {
            for (int r = 0; r < files.partitions.length; r++) {
                try (SegmentStream s = new SegmentStream(link, SERVER_RANK, direct(link, MapOutputFiles.MAP, r), 4, 10_000, 3000,
                        expected).open()) {
                    assertEquals(files.partitions[r].length, s.segmentLength());
                    assertArrayEquals(files.partitions[r], readAll(s), "partition " + r);
                }
            }
        }
        assertTrue(copies.get() >= 2 * (1 + 4 + 10), "copied out of the server: " + copies.get());
        try (SegmentStream s = new SegmentStream(link, SERVER_RANK, direct(link, MapOutputFiles.MAP, 4), 4, 10_000, 3000, 0)
                .open()) {
            assertEquals(10, s.read(new byte[10]));
        }
        awaitRepliesInFlight();
        assertEquals(Set.of(), taken, "every header buffer is given back");
        assertEquals(List.of(), Mappings.of(files.data), "every lent chunk is unmapped");
    }

    /** {@code read} with byte 50 of every read of over 100 bytes flipped while {@code damage} is set. */
    private static Read damaging(Read read, AtomicBoolean damage) {
        return (source, position, into, offset, length) -> {
            int n = read.read(source, position, into, offset, length);
            if (damage.get() && n > 100) {
                into[offset + 50] ^= 0x10;
            }
            return n;
        };
    }

    /**
     * Reads a 3-chunk IFile segment through Hadoop's IFileInputStream, as MapOutput.shuffle does:
     * whole while {@code damage} is off, a checksum error once it is on. Its files.
     */
    private MapOutputFiles readDamaged(int map, AtomicBoolean damage) throws Exception {
        MapOutputFiles files = new MapOutputFiles(root.resolve("disk"), map, 3 * CHUNK);
        try (IFileOutputStream ifile = new IFileOutputStream(Files.newOutputStream(files.data))) {
            ifile.write(files.partitions[0], 0, 3 * CHUNK - 4);
        }
        SlotLink link = connect(files, p -> p);
        byte[] memory = new byte[3 * CHUNK - 4];
        try (SegmentStream s = new SegmentStream(link, SERVER_RANK, direct(link, MapOutputFiles.MAP, 0), 4, 10_000, 3000, 0)
                .open()) {
            IOUtils.readFully(new IFileInputStream(s, s.segmentLength(), new JobConf(false)), memory, 0, memory.length);
        }
        assertArrayEquals(Arrays.copyOf(files.partitions[0], memory.length), memory, "undamaged, the checksum holds");
        damage.set(true);
        assertThrows(ChecksumException.class, () -> {
            try (SegmentStream s = new SegmentStream(link, SERVER_RANK, direct(link, MapOutputFiles.MAP, 0), 4, 10_000, 3000, 0)
                    .open()) {
                IOUtils.readFully(new IFileInputStream(s, s.segmentLength(), new JobConf(false)), memory, 0, memory.length);
            }
        });
        return files;
    }

    /** A direct chunk damaged in its copy fails the IFile checksum, as one damaged on the way over MPI does. */
    @Test
    void aDirectChunkDamagedInItsCopyFailsTheIFileChecksum() throws Exception {
        AtomicBoolean damage = new AtomicBoolean();
        peerRead = damaging(PEERS::peerRead, damage);
        assertEquals(List.of(), Mappings.of(readDamaged(14, damage).data));
    }

    /**
     * A slot that may not read the server's memory (EPERM: Yama's ptrace_scope) fails that fetch
     * with the reason, and takes that server's chunks over MPI from then on.
     */
    @Test
    void aReducerNotAllowedToReadTheServersMemoryTakesItsChunksOverMpiFromThenOn() throws Exception {
        MapOutputFiles files = new MapOutputFiles(root.resolve("disk"), 15, 3 * CHUNK + 5);
        peerRead = (pid, address, into, offset, length) -> -1; // EPERM
        SlotLink link = connect(files, p -> p);
        IOException e = assertThrows(IOException.class, () -> {
            try (SegmentStream s = new SegmentStream(link, SERVER_RANK, direct(link, MapOutputFiles.MAP, 0), 4, 10_000, 3000, 0)
                    .open()) {
                readAll(s);
            }
        });
        assertTrue(e.getMessage().contains("errno 1"), e.getMessage());
        assertTrue(!link.canCopyDirect(SERVER_RANK), "that server's chunks come over MPI now");
        try (SegmentStream s = new SegmentStream(link, SERVER_RANK, direct(link, MapOutputFiles.MAP, 0), 4, 10_000, 3000, 0)
                .open()) {
            assertArrayEquals(files.partitions[0], readAll(s));
        }
        awaitRepliesInFlight();
        assertEquals(Set.of(), taken);
        assertEquals(List.of(), Mappings.of(files.data));
    }

    /**
     * Between two processes of one host the reducer can take the map output's open file and
     * read the segment itself: segments arrive whole, with one READ each (no message per chunk,
     * nothing mapped), and both descriptors are closed once the stream closes, also one closed
     * early.
     */
    @Test
    void lentFilesArriveWholeWithOneReadEachAndEveryDescriptorIsClosed() throws Exception {
        MapOutputFiles files = new MapOutputFiles(root.resolve("disk"), 16, 0, 10, CHUNK, 3 * CHUNK + 123, 9 * CHUNK);
        AtomicInteger fileReads = new AtomicInteger();
        readFile = (fd, position, into, offset, length) -> {
            fileReads.incrementAndGet();
            return PEERS.readFile((int) fd, position, into, offset, length);
        };
        SlotLink link = connect(files, p -> {
            assertTrue(p.limit() <= Messages.Data.FILE_HEADER, "bytes came as a message of " + p.limit() + " bytes");
            return p;
        });
        assertTrue(link.canTakeFiles(SERVER_RANK));
        int segments = 0;
        for (int r = 0; r < files.partitions.length; r++) {
            try (SegmentStream s = new SegmentStream(link, SERVER_RANK, direct(link, MapOutputFiles.MAP, r), 4, 10_000, 3000,
                    10L * CHUNK).open()) {
                assertEquals(files.partitions[r].length, s.segmentLength());
                assertArrayEquals(files.partitions[r], readAll(s), "partition " + r);
                segments++;
            }
        }
        assertEquals(segments, reads.get(), "one READ per segment");
        assertTrue(fileReads.get() >= 1 + 4 + 9, "each read at most a chunk long: " + fileReads.get());
        try (SegmentStream s = new SegmentStream(link, SERVER_RANK, direct(link, MapOutputFiles.MAP, 4), 4, 10_000, 3000, 0)
                .open()) {
            assertEquals(10, s.read(new byte[10]));
        }
        awaitRepliesInFlight();
        assertEquals(Set.of(), taken, "every header buffer is given back");
        assertEquals(0, openDescriptors(), "the server's and the reducer's descriptors are closed");
        assertEquals(List.of(), Mappings.of(files.data), "nothing was mapped");
    }

    /** A lent file's bytes damaged in their read fail the IFile checksum, as a chunk damaged over MPI does. */
    @Test
    void aLentFileDamagedInItsReadFailsTheIFileChecksum() throws Exception {
        AtomicBoolean damage = new AtomicBoolean();
        readFile = damaging(LENT_FILE, damage);
        readDamaged(17, damage);
        assertEquals(0, openDescriptors());
    }

    /**
     * A lent file that ends early (the map output shrank after it was lent) is an IOException
     * that names the segment, not a short segment; a truncated file is not lent at all.
     */
    @Test
    void aLentFileThatEndsEarlyIsAnIOExceptionAndATruncatedOneIsNotLent() throws Exception {
        MapOutputFiles files = new MapOutputFiles(root.resolve("disk"), 18, 3 * CHUNK + 7);
        readFile = (fd, position, into, offset, length) -> {
            int n = PEERS.readFile((int) fd, position, into, offset, length);
            return position >= 2 * CHUNK ? 0 : n; // the file ends at 2 chunks
        };
        SlotLink link = connect(files, p -> p);
        IOException e = assertThrows(IOException.class, () -> {
            try (SegmentStream s = new SegmentStream(link, SERVER_RANK, direct(link, MapOutputFiles.MAP, 0), 4, 10_000, 3000, 0)
                    .open()) {
                readAll(s);
            }
        });
        assertTrue(e.getMessage().contains("the file ends there") && e.getMessage().contains(MapOutputFiles.MAP), e.getMessage());
        try (java.io.RandomAccessFile data = new java.io.RandomAccessFile(files.data.toFile(), "rw")) {
            data.setLength(CHUNK);
        }
        e = assertThrows(IOException.class, () -> new SegmentStream(link, SERVER_RANK, direct(link, MapOutputFiles.MAP, 0), 4,
                10_000, 3000, 0).open());
        assertTrue(e.getMessage().contains("truncated"), e.getMessage());
        assertEquals(0, openDescriptors());
    }

    /**
     * As Hadoop's ShuffleHandler, the Shuffle Manager serves only a READ that carries the job's
     * shuffle HMAC of what it asks for: none, one made with another secret (a task of another
     * job), one made for another partition or another shuffle port, or a job whose secret this
     * node never recorded, gets a refusal and nothing lent, whatever the way it asks for.
     */
    @Test
    void aReadWithoutItsJobsHmacIsRefused() throws Exception {
        MapOutputFiles files = new MapOutputFiles(root.resolve("disk"), 22, 3 * CHUNK, 2 * CHUNK);
        readFile = LENT_FILE;
        SlotLink link = connect(files, p -> p);
        String otherJobs = RequestHash.of(JobTokenSecretManager.createSecretKey(new byte[] {1, 2, 3}), SHUFFLE_PORT, MapOutputFiles.JOB, 1,
                MapOutputFiles.MAP);
        String otherPartitions = hash(MapOutputFiles.MAP, 0);
        String otherNodes = RequestHash.of(JobTokenSecretManager.createSecretKey(SECRET), SHUFFLE_PORT + 1, MapOutputFiles.JOB, 1,
                MapOutputFiles.MAP);
        for (String hash : new String[] {"", otherJobs, otherPartitions, otherNodes, "not base64 at all"}) {
            for (boolean file : new boolean[] {true, false}) {
                Object reply = ask(link, new Messages.Read(0, Messages.Mode.CONCURRENT, MapOutputFiles.USER, MapOutputFiles.JOB,
                        MapOutputFiles.MAP, 1, 0, CHUNK, false, file, -1, hash));
                assertTrue(reply instanceof Messages.Failure failure && failure.reason().contains("shuffle HMAC"),
                        "hash '" + hash + "': " + reply);
            }
        }
        Files.delete(files.localDir.resolve("nmPrivate/application_1700000000000_0007/jvmreuse-shuffle-secret"));
        Object reply = ask(link, new Messages.Read(0, Messages.Mode.CONCURRENT, MapOutputFiles.USER, MapOutputFiles.JOB,
                MapOutputFiles.MAP, 1, 0, CHUNK, false, true, -1, hash(MapOutputFiles.MAP, 1)));
        assertTrue(reply instanceof Messages.Failure failure && failure.reason().contains("no shuffle secret"), String.valueOf(reply));
        assertEquals(0, openDescriptors(), "nothing is lent");
    }

    /** Sends {@code read} (with an id of its own) and waits for the one reply. */
    private static Object ask(SlotLink link, Messages.Read read) throws InterruptedException {
        java.util.concurrent.BlockingQueue<Object> replies = new java.util.concurrent.LinkedBlockingQueue<>();
        long id = link.register(replies::add);
        link.send(SERVER_RANK, new Messages.Read(id, read.mode(), read.user(), read.jobId(), read.mapId(), read.reduce(),
                read.offset(), read.length(), read.direct(), read.file(), read.release(), read.hash()).encode());
        try {
            return replies.poll(5, TimeUnit.SECONDS);
        } finally {
            link.unregister(id);
        }
    }

    /**
     * A READ whose offset is negative would lend the file from before its segment (another
     * partition's bytes): it is refused, and nothing stays lent. One at or past the segment's end
     * (however far) gets no bytes and no file, as an ask ahead does.
     */
    @Test
    void aNegativeOffsetIsRefusedOnTheFilePathAndAnOverLongOneLendsNothing() throws Exception {
        MapOutputFiles files = new MapOutputFiles(root.resolve("disk"), 20, 3 * CHUNK, 2 * CHUNK);
        readFile = LENT_FILE;
        SlotLink link = connect(files, p -> p);
        Object reply = ask(link, new Messages.Read(0, Messages.Mode.CONCURRENT, MapOutputFiles.USER, MapOutputFiles.JOB,
                MapOutputFiles.MAP, 1, -3L * CHUNK, CHUNK, false, true, -1, hash(MapOutputFiles.MAP, 1)));
        assertTrue(reply instanceof Messages.Failure failure && failure.reason().contains("negative"), String.valueOf(reply));
        for (long offset : new long[] {2L * CHUNK, 2L * CHUNK + 1, Long.MAX_VALUE}) {
            reply = ask(link, new Messages.Read(0, Messages.Mode.CONCURRENT, MapOutputFiles.USER, MapOutputFiles.JOB,
                    MapOutputFiles.MAP, 1, offset, CHUNK, false, true, -1, hash(MapOutputFiles.MAP, 1)));
            assertTrue(reply instanceof Messages.Data data && !data.file() && data.bytesLength() == 0,
                    offset + ": " + reply);
        }
        assertEquals(0, openDescriptors(), "nothing is lent");
    }

    /**
     * A reducer that dies with a file lent (it never releases it) does not keep the map output
     * open in the Shuffle Manager: once the pool finds its rank gone, the lend goes.
     */
    @Test
    void theFilesLentToARankThatIsLostAreClosed() throws Exception {
        MapOutputFiles files = new MapOutputFiles(root.resolve("disk"), 21, 3 * CHUNK, 2 * CHUNK);
        readFile = LENT_FILE;
        SlotLink link = connect(files, p -> p);
        Object reply = ask(link, new Messages.Read(0, Messages.Mode.CONCURRENT, MapOutputFiles.USER, MapOutputFiles.JOB,
                MapOutputFiles.MAP, 1, 0, CHUNK, false, true, -1, hash(MapOutputFiles.MAP, 1)));
        assertTrue(reply instanceof Messages.Data data && data.file(), String.valueOf(reply));
        assertEquals(1, LoopbackPeers.openDescriptors(), "the server keeps the file open for the reducer");
        serverThread.execute(() -> serverLost.accept(1));
        assertEquals(0, openDescriptors(), "closed once the reducer's rank is lost");
    }

    /**
     * A descriptor taken that is not the file lent (the lend expired and its number was reused,
     * or the server's process id now names another process) is not read: the fetch fails and
     * every descriptor is closed.
     */
    @Test
    void aDescriptorThatIsNotTheFileLentIsNotRead() throws Exception {
        MapOutputFiles files = new MapOutputFiles(root.resolve("disk"), 23, 3 * CHUNK, 2 * CHUNK);
        Path other = Files.write(root.resolve("other.out"), new byte[8 * CHUNK]);
        readFile = LENT_FILE;
        takeFile = (pid, fd) -> PEERS.openFile(other.toString()); // what a reused number would name
        SlotLink link = connect(files, p -> p);
        IOException e = assertThrows(IOException.class, () -> new SegmentStream(link, SERVER_RANK,
                direct(link, MapOutputFiles.MAP, 1), 4, 10_000, 3000, 0).open().close());
        assertTrue(e.getMessage().contains("is not the file it lent"), e.getMessage());
        assertEquals(0, openDescriptors(), "the descriptor taken and the one lent are closed");
    }

    /**
     * A slot whose kernel refuses to take the server's files (EPERM: Yama's ptrace_scope; ENOSYS:
     * before Linux 5.6) still gets that segment whole, chunk by chunk over MPI, and asks that
     * server for chunks from then on; the lent descriptor is closed.
     */
    @Test
    void aReducerThatCannotTakeTheServersFilesGetsTheSegmentChunkByChunk() throws Exception {
        MapOutputFiles files = new MapOutputFiles(root.resolve("disk"), 19, 3 * CHUNK + 5, 2 * CHUNK);
        readFile = LENT_FILE;
        takeFile = (pid, fd) -> -38; // ENOSYS
        SlotLink link = connect(files, p -> p);
        try (SegmentStream s = new SegmentStream(link, SERVER_RANK, direct(link, MapOutputFiles.MAP, 0), 4, 10_000, 3000, 0)
                .open()) {
            assertArrayEquals(files.partitions[0], readAll(s));
        }
        assertTrue(!link.canTakeFiles(SERVER_RANK), "that server's segments come chunk by chunk now");
        try (SegmentStream s = new SegmentStream(link, SERVER_RANK, direct(link, MapOutputFiles.MAP, 1), 4, 10_000, 3000, 0)
                .open()) {
            assertArrayEquals(files.partitions[1], readAll(s));
        }
        awaitRepliesInFlight();
        assertEquals(Set.of(), taken);
        assertEquals(0, openDescriptors(), "the descriptor lent for the first segment is closed");
    }

    @Test
    void aServerThatNeverAnswersTimesOut() throws Exception {
        MapOutputFiles files = new MapOutputFiles(root.resolve("disk"), 8, 100);
        SlotLink link = connect(files, p -> p);
        long start = System.nanoTime();
        IOException e = assertThrows(IOException.class, () -> new SegmentStream(link, 5,
                read(Messages.Mode.CONCURRENT, MapOutputFiles.MAP, 0), 4, 300, 10_000, 0).open());
        assertTrue(e.getMessage().contains("within 300 ms"), e.getMessage());
        assertTrue(System.nanoTime() - start < 5_000_000_000L);
    }

    @Test
    void aServerThatIsGoneIsFoundByALivenessCheckLongBeforeTheReadTimeout() throws Exception {
        MapOutputFiles files = new MapOutputFiles(root.resolve("disk"), 10, 100);
        SlotLink link = connect(files, p -> p);
        long start = System.nanoTime();
        IOException e = assertThrows(ServerLostException.class, () -> new SegmentStream(link, 5,
                read(Messages.Mode.CONCURRENT, MapOutputFiles.MAP, 0), 4, 60_000, 200, 0).open());
        long tookMillis = (System.nanoTime() - start) / 1_000_000;
        assertTrue(tookMillis >= 400 && tookMillis < 5_000, "silent for the liveness time, then no answer to the check: "
                + tookMillis + " ms");
        assertTrue(e.getMessage().contains("liveness check"), e.getMessage());
        assertEquals(1, sentToNobody.stream().filter(m -> m instanceof Messages.Ping).count(), "one check: " + sentToNobody);
    }

    @Test
    void aBusyServerAnswersTheLivenessCheckAndIsWaitedFor() throws Exception {
        MapOutputFiles files = new MapOutputFiles(root.resolve("disk"), 11, 3 * CHUNK);
        SlotLink link = connect(files, p -> p, 700);
        try (SegmentStream s = new SegmentStream(link, SERVER_RANK, read(Messages.Mode.CONCURRENT, MapOutputFiles.MAP, 0),
                4, 60_000, 200, 0).open()) {
            assertArrayEquals(files.partitions[0], readAll(s));
        }
        awaitRepliesInFlight();
        assertEquals(Set.of(), taken);
    }

    @Test
    void aStoppedShuffleManagerSendsTheReducerElsewhereAtOnce() throws Exception {
        MapOutputFiles files = new MapOutputFiles(root.resolve("disk"), 12, 100);
        SlotLink link = connect(files, p -> p);
        manager.stop();
        long start = System.nanoTime();
        IOException e = assertThrows(ServerLostException.class, () -> new SegmentStream(link, SERVER_RANK,
                read(Messages.Mode.CONCURRENT, MapOutputFiles.MAP, 0), 4, 60_000, 10_000, 0).open());
        assertTrue(e.getMessage().contains("stopping"), e.getMessage());
        assertTrue(System.nanoTime() - start < 2_000_000_000L, "no wait for a time-out");
    }
}
