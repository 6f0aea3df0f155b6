package org.jvmreuse.shuffle.reduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.jvmreuse.boot.LocalPeers;
import org.jvmreuse.boot.ServicePort;
import org.jvmreuse.hadoop.warmup.ShuffleWarmup;
import org.jvmreuse.shuffle.reduce.PathCounters.Way;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The MPI shuffle's counters per way and host: which way every segment came (lent file, direct
 * copy, MPI message) and whether from a Shuffle Manager on the reducer's host, decided by the host
 * names the ranks announced, never by the port's same-host access alone (hosts that share a
 * kernel can still read each other's processes: a wrong "same host" would not fail by itself).
 */
class PathCountersTest {
    private static final String GROUP = MpiCopier.COUNTERS;

    @TempDir
    Path dir;

    /**
     * Three warm-up shuffles take the three ways in turn (lent files and direct chunks as on one
     * host, chunks over the message loop as between two hosts): each run's segments and bytes are
     * all under its way and locality, and add up to MPI_MAPS and MPI_BYTES; nothing over HTTP.
     */
    @Test
    void eachSegmentCountsUnderTheWayAndHostItCame() throws Exception {
        Map<String, Long> seen = new HashMap<>();
        for (int run = 0; run < 3; run++) {
            ShuffleWarmup.Result mpi = ShuffleWarmup.run(dir.resolve("run" + run), 256 << 10).get(1);
            Counters c = mpi.counters();
            long maps = value(c, "MPI_MAPS");
            long bytes = value(c, "MPI_BYTES");
            assertEquals(mpi.counter(TaskCounter.SHUFFLED_MAPS), maps);
            assertEquals(mpi.counter(TaskCounter.REDUCE_SHUFFLE_BYTES), bytes);
            assertEquals(0, value(c, "HTTP_MAPS"));
            assertEquals(0, value(c, "HTTP_BYTES"));
            long segmentSum = 0;
            long byteSum = 0;
            String taken = null;
            for (Way way : Way.values()) {
                for (boolean same : new boolean[] {true, false}) {
                    long segments = value(c, PathCounters.segmentsName(way, same));
                    long wayBytes = value(c, PathCounters.bytesName(way, same));
                    segmentSum += segments;
                    byteSum += wayBytes;
                    if (segments > 0) {
                        assertEquals(null, taken, "one way per run: " + c);
                        taken = PathCounters.segmentsName(way, same);
                        assertEquals(maps, segments, taken);
                        assertEquals(bytes, wayBytes, PathCounters.bytesName(way, same));
                    }
                }
            }
            assertEquals(maps, segmentSum);
            assertEquals(bytes, byteSum);
            seen.put(taken, bytes);
        }
        assertEquals(Map.of("LENT_FILE_SEGMENTS_SAME_HOST", seen.get("LENT_FILE_SEGMENTS_SAME_HOST"),
                "DIRECT_COPY_SEGMENTS_SAME_HOST", seen.get("DIRECT_COPY_SEGMENTS_SAME_HOST"),
                "MPI_MESSAGE_SEGMENTS_OTHER_HOST", seen.get("MPI_MESSAGE_SEGMENTS_OTHER_HOST")).keySet(), seen.keySet());
    }

    /** Twelve counters per way and locality, all made at once (a way not taken shows 0). */
    @Test
    void theCountersHaveTheirDocumentedNames() {
        Counters counters = new Counters();
        org.apache.hadoop.mapred.Reporter reporter = new org.apache.hadoop.mapred.Reporter() {
            @Override public void setStatus(String status) { }
            @Override public Counters.Counter getCounter(Enum<?> name) { return counters.findCounter(name); }
            @Override public Counters.Counter getCounter(String group, String name) { return counters.findCounter(group, name); }
            @Override public void incrCounter(Enum<?> key, long amount) { }
            @Override public void incrCounter(String group, String counter, long amount) { }
            @Override public org.apache.hadoop.mapred.InputSplit getInputSplit() { return null; }
            @Override public float getProgress() { return 0; }
            @Override public void progress() { }
        };
        PathCounters paths = new PathCounters(reporter);
        assertEquals(12, counters.getGroup(GROUP).size());
        paths.record(Way.DIRECT_COPY, false, new long[] {0, 100, 20});
        assertEquals(1, value(counters, "DIRECT_COPY_SEGMENTS_OTHER_HOST"));
        assertEquals(100, value(counters, "DIRECT_COPY_BYTES_OTHER_HOST"));
        assertEquals(20, value(counters, "MPI_MESSAGE_BYTES_OTHER_HOST"));
        assertEquals(0, value(counters, "MPI_MESSAGE_SEGMENTS_OTHER_HOST"));
        assertEquals(0, value(counters, "DIRECT_COPY_BYTES_SAME_HOST"));
    }

    /**
     * The testbed's case: the port offers same-host access to every rank (one kernel), but the
     * server announced another host: no lent file, no direct copy, counted as another host's.
     * Same names: both, same host. No names known: the port's access decides.
     */
    @Test
    void sameHostIsDecidedByTheAnnouncedHostNames() {
        LocalPeers everyone = new LoopbackPeers();
        PortLink across = PortLink.on(new NamedPort(List.of("n1", "n2"), everyone));
        assertFalse(across.sameHost(0));
        assertFalse(across.canTakeFiles(0));
        assertFalse(across.canCopyDirect(0));
        PortLink within = PortLink.on(new NamedPort(List.of("n1", "n1"), everyone));
        assertTrue(within.sameHost(0));
        assertTrue(within.canTakeFiles(0));
        assertTrue(within.canCopyDirect(0));
        assertTrue(PortLink.on(new NamedPort(List.of(), everyone)).sameHost(0));
        assertFalse(PortLink.on(new NamedPort(List.of(), null)).sameHost(0));
    }

    private static long value(Counters counters, String name) {
        return counters.findCounter(GROUP, name).getValue();
    }

    /** Rank 1 (the reducer's) with the host names {@code hosts} by rank and same-host access {@code peers}. */
    private record NamedPort(List<String> hosts, LocalPeers peers) implements ServicePort {
        @Override public int rank() { return 1; }
        @Override public List<String> directory() { return List.of("", ""); }
        @Override public void send(int rank, ByteBuffer message) { }
        @Override public void sendLent(int rank, ByteBuffer header, ByteBuffer body, Consumer<ByteBuffer> done) { }
        @Override public ByteBuffer buffer(int capacity) { return ByteBuffer.allocateDirect(capacity); }
        @Override public void release(ByteBuffer buffer) { }
        @Override public void receiveWith(BiConsumer<Integer, ByteBuffer> receiver) { }
        @Override public void lostWith(IntConsumer lost) { }
        @Override public void log(String level, String message) { }
        @Override public Optional<LocalPeers> localPeers() { return Optional.ofNullable(peers); }
        @Override public String host(int rank) { return rank < hosts.size() ? hosts.get(rank) : ""; }
    }
}
