package org.apache.hadoop.mapreduce.task.reduce;

import javax.crypto.SecretKey;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapred.TaskUmbilicalProtocol;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.jvmreuse.shuffle.reduce.HostCopier;

/**
 * The package-private parts of Hadoop's shuffle that {@code org.jvmreuse.shuffle.reduce.MpiShuffle}
 * reuses unchanged: the map-completion event fetcher, the shuffle error, and the HTTP fetcher
 * (subclassed so that hosts with a Shuffle Manager go over MPI). This class lives in Hadoop's
 * package only to reach them; it adds no behaviour of its own. Its source is the same for every
 * Hadoop version the shuffle is built for (each build compiles it against its own version);
 * what differs between them is {@link VersionParts}.
 */
public final class ShuffleParts {
    private ShuffleParts() {
    }

    public static <K, V> Thread eventFetcher(TaskAttemptID reduceId, TaskUmbilicalProtocol umbilical,
                                             ShuffleScheduler<K, V> scheduler, ExceptionReporter reporter, int maxEvents) {
        return new EventFetcher<K, V>(reduceId, umbilical, scheduler, reporter, maxEvents);
    }

    /** A stock fetcher thread that gives each host to {@code copier} first ({@code null}: HTTP only). */
    public static <K, V> Thread fetcher(JobConf conf, TaskAttemptID reduceId, ShuffleSchedulerImpl<K, V> scheduler,
                                        MergeManager<K, V> merger, Reporter reporter, ShuffleClientMetrics metrics,
                                        ExceptionReporter exceptionReporter, SecretKey shuffleKey, HostCopier copier) {
        return new Fetcher<K, V>(conf, reduceId, scheduler, merger, reporter, metrics, exceptionReporter, shuffleKey) {
            @Override
            protected void copyFromHost(MapHost host) throws java.io.IOException {
                try {
                    if (copier != null && copier.copy(host)) {
                        return;
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                super.copyFromHost(host);
            }
        };
    }

    /** Stops a thread made here, as Hadoop's shuffle stops its own. */
    public static void shutDown(Thread thread) throws InterruptedException {
        if (thread instanceof EventFetcher<?, ?> events) {
            events.shutDown();
        } else {
            ((Fetcher<?, ?>) thread).shutDown();
        }
    }

    public static java.io.IOException shuffleError(String message, Throwable cause) {
        return new Shuffle.ShuffleError(message, cause);
    }
}
