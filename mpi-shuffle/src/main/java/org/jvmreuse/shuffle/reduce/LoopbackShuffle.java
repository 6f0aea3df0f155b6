package org.jvmreuse.shuffle.reduce;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapred.ShuffleConsumerPlugin;
import org.jvmreuse.boot.LocalPeers;
import org.jvmreuse.boot.ServicePort;
import org.jvmreuse.shuffle.server.JobSecrets;
import org.jvmreuse.shuffle.server.ShuffleManager;

/**
 * The MPI shuffle with the pool's MPI replaced by two message threads in this JVM, one for the
 * Shuffle Manager and one for the reducer (as the pool's communication threads are), so that a
 * slot's warm-up runs the reducer's and the server's Java code (MpiShuffle, MpiCopier,
 * SegmentStream, the protocol's messages, ShuffleServer, MapOutputs) without calling MPI.
 * hadoop-patch's TaskWarmup gets it through {@link LoopbackWarmup} (a {@code WarmupShuffle} found
 * with ServiceLoader) when the MPI shuffle is on its class path (a slot's: this class uses
 * org.jvmreuse.boot's {@link ServicePort}, which every pool JVM has). It serves the
 * map outputs under {@code localDir} for the host {@code 127.0.0.1:shufflePort}, with a Shuffle
 * Manager and a link of its own, never the slot's. Instances take turns over the three ways a
 * segment travels: lent files (the reducer reads the server's open map output itself, the way
 * between two processes of one host), chunks over MPI (the way between hosts), and direct chunks
 * copied out of the server's memory (one host, a kernel without pidfd_getfd); here each within
 * this JVM, each process's {@link ServicePort} a {@link LoopPort} (its same-host access an
 * {@link LoopbackPeers}, none for chunks over MPI). {@link #close} stops everything it started.
 */
public final class LoopbackShuffle<K, V> implements ShuffleConsumerPlugin<K, V> {
    private static final int SERVER_RANK = 0;
    private static final int REDUCER_RANK = 1;
    private static final java.util.concurrent.atomic.AtomicInteger INSTANCES = new java.util.concurrent.atomic.AtomicInteger();

    private final Path localDir;
    private final int shufflePort;
    private final ExecutorService serverThread = Executors.newSingleThreadExecutor(r -> thread(r, "warmup-shuffle-server-comm"));
    private final ExecutorService reducerThread = Executors.newSingleThreadExecutor(r -> thread(r, "warmup-shuffle-reducer-comm"));
    private BiConsumer<Integer, ByteBuffer> serverReceiver;
    private BiConsumer<Integer, ByteBuffer> reducerReceiver;
    private MpiShuffle<K, V> shuffle;
    private ShuffleManager manager;
    /** 0: lent files, 1: chunks over MPI, 2: direct chunks. */
    private final int way = INSTANCES.getAndIncrement() % 3;

    public LoopbackShuffle(Path localDir, int shufflePort) {
        this.localDir = localDir;
        this.shufflePort = shufflePort;
    }

    @Override
    public void init(Context<K, V> context) {
        try {
            Path conf = Files.createDirectories(localDir.resolveSibling(localDir.getFileName() + "-conf"));
            Files.writeString(conf.resolve("yarn-site.xml"), "<configuration>"
                    + property("yarn.nodemanager.local-dirs", localDir.toString())
                    + property("yarn.nodemanager.hostname", "127.0.0.1")
                    + property("mapreduce.shuffle.port", Integer.toString(shufflePort)) + "</configuration>");
            // What the NodeManager's executor does when it launches a job's container.
            JobSecrets.record(localDir, context.getReduceId().getJobID().toString(),
                    context.getReduceTask().getShuffleSecret().getEncoded());
            LocalPeers peers = way == 1 ? null : new LoopbackPeers();
            manager = new ShuffleManager();
            String announced = manager.start(new LoopPort(SERVER_RANK, List.of(), r -> serverReceiver = r, peers),
                    Map.of("conf-dir", conf.toString(), "threads", "2"), "127.0.0.1", 0);
            ServicePort reducer = new LoopPort(REDUCER_RANK, List.of(announced), r -> reducerReceiver = r, peers);
            // way 0: the reducer takes lent files only; way 2: direct chunks only (no pidfd_getfd)
            SlotLink link = PortLink.on(reducer, way == 2, way == 0);
            shuffle = new MpiShuffle<>(() -> link);
            shuffle.init(context);
        } catch (Exception e) {
            close();
            throw new IllegalStateException("the MPI shuffle warm-up could not start: " + e, e);
        }
    }

    private static String property(String name, String value) {
        return "<property><name>" + name + "</name><value>" + value + "</value></property>";
    }

    /**
     * A process's MPI: a message to the server goes to the server's thread and one to the reducer
     * to the reducer's (the pool's communication threads); buffers are direct, as MPI's are. No
     * process of the loop ends while it runs, and the warm-up's server logs nothing.
     */
    private final class LoopPort implements ServicePort {
        private final int rank;
        private final List<String> directory;
        private final Consumer<BiConsumer<Integer, ByteBuffer>> receiver;
        private final LocalPeers peers;

        LoopPort(int rank, List<String> directory, Consumer<BiConsumer<Integer, ByteBuffer>> receiver, LocalPeers peers) {
            this.rank = rank;
            this.directory = directory;
            this.receiver = receiver;
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
        public void send(int dest, ByteBuffer payload) {
            if (dest == SERVER_RANK) {
                serverThread.execute(() -> serverReceiver.accept(REDUCER_RANK, payload));
            } else {
                reducerThread.execute(() -> reducerReceiver.accept(SERVER_RANK, payload));
            }
        }

        /**
         * As MPI does: a lent chunk (a mapping of file.out) lands in a buffer of the reducer's
         * process, the lender gets it back, and header and chunk arrive together, in order.
         */
        @Override
        public void sendLent(int dest, ByteBuffer header, ByteBuffer body, Consumer<ByteBuffer> done) {
            ByteBuffer received = ByteBuffer.allocateDirect(body.limit());
            received.put(0, body, 0, body.limit());
            done.accept(body);
            reducerThread.execute(() -> {
                reducerReceiver.accept(SERVER_RANK, header);
                reducerReceiver.accept(SERVER_RANK, received);
            });
        }

        @Override
        public ByteBuffer buffer(int capacity) {
            return ByteBuffer.allocateDirect(capacity);
        }

        @Override
        public void release(ByteBuffer buffer) {
        }

        @Override
        public void receiveWith(BiConsumer<Integer, ByteBuffer> receiver) {
            this.receiver.accept(receiver);
        }

        @Override
        public void lostWith(IntConsumer lost) {
        }

        @Override
        public void log(String level, String message) {
        }

        @Override
        public Optional<LocalPeers> localPeers() {
            return Optional.ofNullable(peers);
        }

        /** Chunks over MPI play two hosts; lent files and direct chunks one. */
        @Override
        public String host(int rank) {
            return way == 1 && rank == REDUCER_RANK ? "loop-other-host" : "loop-host";
        }
    }

    @Override
    public RawKeyValueIterator run() throws IOException, InterruptedException {
        return shuffle.run();
    }

    @Override
    public void close() {
        if (shuffle != null) {
            shuffle.close();
        }
        if (manager != null) {
            manager.stop();
            manager = null;
        }
        serverThread.shutdownNow();
        reducerThread.shutdownNow();
        try {
            serverThread.awaitTermination(2, TimeUnit.SECONDS);
            reducerThread.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static Thread thread(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }
}
