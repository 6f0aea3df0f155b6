package org.jvmreuse.shuffle.reduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.log4j.AppenderSkeleton;
import org.apache.log4j.Level;
import org.apache.log4j.Logger;
import org.apache.log4j.spi.LoggingEvent;
import org.jvmreuse.hadoop.warmup.ShuffleWarmup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A slot's shuffle warm-up with this module on its class path: after the HTTP shuffle, every map
 * output comes through the MPI shuffle's reducer and a real Shuffle Manager over the in-JVM
 * message loop, and is merged whole; both reducers shuffle to memory and to disk and merge in
 * memory and on disk; of three warm-up runs one reads the segments from the server's lent files
 * and one takes chunks out of the server's memory (both as between two processes of one host),
 * and one takes them over the message loop (as over MPI); the warm-up leaves no thread, server,
 * slot link, descriptor or mapping of a map output behind.
 */
class LoopbackShuffleTest {
    @TempDir
    Path dir;

    @Test
    void theWarmupRunsTheMpiShuffleAndStopsEverything() throws Exception {
        Set<Thread> before = Thread.getAllStackTraces().keySet();
        List<String> merges = Collections.synchronizedList(new ArrayList<>());
        Logger log = Logger.getLogger("org.apache.hadoop.mapreduce.task.reduce.MergeManagerImpl");
        Level level = log.getLevel();
        AppenderSkeleton appender = new AppenderSkeleton() {
            @Override
            protected void append(LoggingEvent event) {
                merges.add(event.getRenderedMessage());
            }

            @Override
            public void close() {
            }

            @Override
            public boolean requiresLayout() {
                return false;
            }
        };
        log.addAppender(appender);
        log.setLevel(Level.INFO);
        List<ShuffleWarmup.Result> results;
        List<List<ShuffleWarmup.Result>> again = new ArrayList<>();
        try {
            results = ShuffleWarmup.run(dir.resolve("1"), 1 << 20);
            // the other two of lent files, chunks over MPI and direct chunks
            again.add(ShuffleWarmup.run(dir.resolve("2"), 1 << 20));
            again.add(ShuffleWarmup.run(dir.resolve("3"), 1 << 20));
        } finally {
            log.removeAppender(appender);
            log.setLevel(level);
        }
        for (List<ShuffleWarmup.Result> other : again) {
            assertEquals(results.get(1).records(), other.get(1).records());
            assertEquals(results.get(1).bytes(), other.get(1).bytes());
        }
        assertTrue(LoopbackPeers.taken() >= 12, "one run read the 12 maps' segments from lent files: " + LoopbackPeers.taken());
        assertEquals(0, LoopbackPeers.openDescriptors(), "every lent file is closed");
        assertEquals(List.of(), java.nio.file.Files.readAllLines(Path.of("/proc/self/maps")).stream()
                .filter(line -> line.contains(dir.toString())).toList(), "every chunk is unmapped");
        // Both reducers shuffle to memory and to disk and merge in memory and on disk.
        for (String step : List.of("Shuffling to disk", "Starting inMemoryMerger's merge", "OnDiskMerger: We have")) {
            assertTrue(merges.stream().filter(m -> m.contains(step)).count() >= 2, "twice " + step + ": " + merges);
        }
        assertEquals(List.of("http", "mpi"), results.stream().map(ShuffleWarmup.Result::path).toList());
        ShuffleWarmup.Result http = results.get(0);
        ShuffleWarmup.Result mpi = results.get(1);
        assertEquals(12, mpi.counters().findCounter(MpiCopier.COUNTERS, "MPI_MAPS").getValue(), "all over MPI: " + mpi);
        assertTrue(mpi.counters().findCounter(MpiCopier.COUNTERS, "MPI_BYTES").getValue() > mpi.bytes(), "IFile bytes: " + mpi);
        assertEquals(http.records(), mpi.records());
        assertEquals(http.bytes(), mpi.bytes());
        assertEquals(http.counter(TaskCounter.REDUCE_SHUFFLE_BYTES), mpi.counter(TaskCounter.REDUCE_SHUFFLE_BYTES));
        assertNull(SlotLink.current(), "the warm-up's link is its own, never the slot's");
        Thread.sleep(200); // a stopped thread may take a moment to end
        Set<String> left = Thread.getAllStackTraces().keySet().stream().filter(t -> !before.contains(t) && t.isAlive())
                .map(Thread::getName).filter(n -> !n.startsWith("process reaper")).collect(Collectors.toSet());
        assertEquals(Set.of(), left, "threads the warm-up left");
    }
}
