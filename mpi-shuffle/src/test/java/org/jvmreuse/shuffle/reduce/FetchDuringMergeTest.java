package org.jvmreuse.shuffle.reduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.InputStream;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.task.reduce.MapHost;
import org.apache.hadoop.mapreduce.task.reduce.MapOutput;
import org.apache.hadoop.mapreduce.task.reduce.MergeManager;
import org.apache.hadoop.mapreduce.task.reduce.ShuffleClientMetrics;
import org.junit.jupiter.api.Test;

/** Fetchers wait for a running merge only once the merge manager has answered WAIT. */
class FetchDuringMergeTest {
    /** A merge manager with a merge running: counts the fetchers' waits for it; reserve answers WAIT when memory is full. */
    private static final class Merging implements MergeManager<Object, Object> {
        int waits;
        boolean full;

        @Override
        public void waitForResource() {
            waits++;
        }

        @Override
        public MapOutput<Object, Object> reserve(TaskAttemptID mapId, long requestedSize, int fetcher) {
            return full ? null : new MapOutput<>(mapId, requestedSize, true) {
                @Override
                public void shuffle(MapHost host, InputStream input, long compressedLength, long decompressedLength,
                                    ShuffleClientMetrics metrics, Reporter reporter) {
                }

                @Override
                public void commit() {
                }

                @Override
                public void abort() {
                }

                @Override
                public String getDescription() {
                    return "MEMORY";
                }
            };
        }

        @Override
        public RawKeyValueIterator close() {
            return null;
        }
    }

    @Test
    void fetchersGoOnDuringAMergeUntilMemoryIsFullThenOneWaitsForIt() throws Exception {
        Merging merging = new Merging();
        FetchDuringMerge<Object, Object> fetchers = new FetchDuringMerge<>(merging);
        fetchers.waitForResource();
        assertNotNull(fetchers.reserve(new TaskAttemptID(), 10, 1));
        fetchers.waitForResource();
        assertEquals(0, merging.waits, "memory left: no fetcher waits for the merge");
        merging.full = true;
        assertNull(fetchers.reserve(new TaskAttemptID(), 10, 1), "WAIT is passed on");
        fetchers.waitForResource();
        assertEquals(1, merging.waits, "after a WAIT the next fetcher to take a host waits for the merge");
        fetchers.waitForResource();
        assertEquals(1, merging.waits, "and only that one");
    }
}
