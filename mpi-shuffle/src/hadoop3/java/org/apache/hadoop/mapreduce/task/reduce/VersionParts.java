package org.apache.hadoop.mapreduce.task.reduce;

import java.io.IOException;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.ShuffleConsumerPlugin;
import org.apache.hadoop.mapreduce.TaskAttemptID;

/**
 * The parts of Hadoop's shuffle whose API differs between the Hadoop versions the MPI shuffle is
 * built for, here Hadoop 3.x's (compiled against 3.5.0 by the mpi-shuffle3 module). Every version
 * has a class of this name with these methods, in its own source folder (mpi-shuffle/src/hadoop2,
 * src/hadoop3); the rest of the shuffle calls them and is the same source for all versions
 * (docs/shuffle.md, "Hadoop versions").
 */
public final class VersionParts {
    private VersionParts() {
    }

    /** 3.x's metrics register with metrics2 through their factory. */
    public static ShuffleClientMetrics metrics(TaskAttemptID reduceId, JobConf conf) {
        return ShuffleClientMetrics.create(reduceId, conf);
    }

    /** Tells the scheduler that {@code map}'s output was copied between the two times (3.x tracks the copy's span). */
    public static <K, V> void copySucceeded(ShuffleSchedulerImpl<K, V> scheduler, TaskAttemptID map, MapHost host, long bytes,
                                            long startMillis, long endMillis, MapOutput<K, V> output) throws IOException {
        scheduler.copySucceeded(map, host, bytes, startMillis, endMillis, output);
    }

    /**
     * Whether the reducer's map outputs are files of its own process: 3.x's ReduceTask runs the
     * shuffle plug-in also for uber and local jobs, and gives it their map files instead of hosts.
     */
    public static boolean hasLocalMapFiles(ShuffleConsumerPlugin.Context<?, ?> context) {
        return context.getLocalMapFiles() != null;
    }
}
