package org.jvmreuse.shuffle.reduce;

import java.io.IOException;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.task.reduce.MapOutput;
import org.apache.hadoop.mapreduce.task.reduce.MergeManager;

/**
 * The merge manager as the MPI shuffle's fetchers see it: Hadoop's, except that a fetcher does
 * not wait for a running in-memory merge before it takes its next host. Hadoop 2.2's Fetcher
 * waits there ({@code waitForResource}), so a reducer whose merge starts with map outputs still
 * to fetch stops fetching for the whole merge (seconds for a few hundred MB on a busy node) and
 * fetches them after it. Here it goes on, bounded as before by the merge manager's memory
 * limit: {@link #reserve} still answers WAIT above it (and then the next fetcher to take a host
 * waits for the merge as Hadoop's does, instead of asking again and again), and an output too
 * large for memory still goes to disk. The merge itself is the same and still ends before the
 * reduce starts ({@link #close}). {@code jvmreuse.shuffle.fetch-during-merge=false} keeps
 * Hadoop's wait.
 */
final class FetchDuringMerge<K, V> implements MergeManager<K, V> {
    private final MergeManager<K, V> merger;
    /** A reserve was answered WAIT (memory is over the limit) and no fetcher has waited for the merge since. */
    private volatile boolean full;

    FetchDuringMerge(MergeManager<K, V> merger) {
        this.merger = merger;
    }

    @Override
    public void waitForResource() throws InterruptedException {
        if (full) {
            full = false;
            merger.waitForResource();
        }
    }

    @Override
    public MapOutput<K, V> reserve(TaskAttemptID mapId, long requestedSize, int fetcher) throws IOException {
        MapOutput<K, V> output = merger.reserve(mapId, requestedSize, fetcher);
        if (output == null) {
            full = true;
        }
        return output;
    }

    @Override
    public RawKeyValueIterator close() throws Throwable {
        return merger.close();
    }
}
