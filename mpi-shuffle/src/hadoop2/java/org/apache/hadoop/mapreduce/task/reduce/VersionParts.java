package org.apache.hadoop.mapreduce.task.reduce;

import java.io.IOException;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.ShuffleConsumerPlugin;
import org.apache.hadoop.mapreduce.TaskAttemptID;

/**
 * The parts of Hadoop's shuffle whose API differs between the Hadoop versions the MPI shuffle is
 * built for, here Hadoop 2.2's. Every version has a class of this name with these methods, in its
 * own source folder (mpi-shuffle/src/hadoop2, src/hadoop3), compiled against that version only;
 * the rest of the shuffle calls them and is the same source for all versions (docs/shuffle.md,
 * "Hadoop versions").
 */
public final class VersionParts {
    private VersionParts() {
    }

    /** 2.2's metrics are made with their package-private constructor. */
    public static ShuffleClientMetrics metrics(TaskAttemptID reduceId, JobConf conf) {
        return new ShuffleClientMetrics(reduceId, conf);
    }

    /** Tells the scheduler that {@code map}'s output was copied between the two times; 2.2 takes the duration. */
    public static <K, V> void copySucceeded(ShuffleSchedulerImpl<K, V> scheduler, TaskAttemptID map, MapHost host, long bytes,
                                            long startMillis, long endMillis, MapOutput<K, V> output) throws IOException {
        scheduler.copySucceeded(map, host, bytes, endMillis - startMillis, output);
    }

    /**
     * Never: 2.2's ReduceTask runs the shuffle plug-in only when the map outputs are on other
     * nodes' ShuffleHandlers; an uber or local job's reducer merges its map files itself.
     */
    public static boolean hasLocalMapFiles(ShuffleConsumerPlugin.Context<?, ?> context) {
        return false;
    }
}
