package org.jvmreuse.shuffle.reduce;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapred.ShuffleConsumerPlugin;
import org.apache.hadoop.mapred.Task;
import org.apache.hadoop.mapred.TaskStatus;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.task.reduce.ExceptionReporter;
import org.apache.hadoop.mapreduce.task.reduce.MergeManager;
import org.apache.hadoop.mapreduce.task.reduce.MergeManagerImpl;
import org.apache.hadoop.mapreduce.task.reduce.Shuffle;
import org.apache.hadoop.mapreduce.task.reduce.ShuffleClientMetrics;
import org.apache.hadoop.mapreduce.task.reduce.ShuffleParts;
import org.apache.hadoop.mapreduce.task.reduce.ShuffleSchedulerImpl;
import org.apache.hadoop.mapreduce.task.reduce.VersionParts;
import org.apache.hadoop.util.Progress;
import org.jvmreuse.shuffle.protocol.Messages;

/**
 * The reduce side of the MPI shuffle, a Hadoop shuffle plug-in
 * ({@code mapreduce.job.reduce.shuffle.consumer.plugin.class}, Hadoop 2.2 and 3.x). It is Hadoop's
 * own shuffle, event fetcher, scheduler, {@code parallelcopies} fetcher threads and merge manager,
 * except that a fetcher takes map outputs over MPI from the Shuffle Manager of every node in the
 * pool's service directory; other nodes, and reducers that do not run in a pool slot, use HTTP.
 * A reducer whose map outputs are files of its own process (3.x runs the plug-in also for uber
 * and local jobs) runs Hadoop's own shuffle, which reads them where they are.
 * Counters (group {@value MpiCopier#COUNTERS}): MPI_MAPS, MPI_BYTES, HTTP_MAPS, HTTP_BYTES,
 * LOST_SHUFFLE_MANAGERS, and per way and host ({@link PathCounters}) e.g. LENT_FILE_BYTES_SAME_HOST,
 * MPI_MESSAGE_BYTES_OTHER_HOST; LOCAL_MAPS alone where the map outputs were local files.
 */
@SuppressWarnings({"unchecked", "rawtypes"})
public class MpiShuffle<K, V> implements ShuffleConsumerPlugin<K, V>, ExceptionReporter {
    private static final Log LOG = LogFactory.getLog(MpiShuffle.class);
    private static final int PROGRESS_MILLIS = 2000;
    private static final int MAX_EVENTS_TO_FETCH = 10000;
    private static final int MIN_EVENTS_TO_FETCH = 100;
    private static final int MAX_RPC_OUTSTANDING_EVENTS = 3000000;

    private Context<K, V> context;
    private TaskAttemptID reduceId;
    private JobConf jobConf;
    private Reporter reporter;
    private ShuffleClientMetrics metrics;
    private ShuffleSchedulerImpl<K, V> scheduler;
    private MergeManager<K, V> merger;
    private MpiShuffleSettings settings;
    private PathCounters paths;
    private Throwable throwable;
    private String throwingThreadName;
    /** Hadoop's own shuffle, for map outputs that are local files (else null). */
    private ShuffleConsumerPlugin<K, V> local;
    /** Where the fetchers find the slot's link: the attached one, or a warm-up's own. */
    private final Supplier<SlotLink> links;

    public MpiShuffle() {
        this(SlotLink::current);
    }

    MpiShuffle(Supplier<SlotLink> links) {
        this.links = links;
    }

    @Override
    public void init(Context context) {
        this.context = context;
        if (VersionParts.hasLocalMapFiles(context)) {
            LOG.info("MPI shuffle: the map outputs are local files (an uber or local job); Hadoop's own shuffle reads them");
            local = new Shuffle<>();
            local.init(context);
            return;
        }
        this.reduceId = context.getReduceId();
        this.jobConf = context.getJobConf();
        this.reporter = context.getReporter();
        this.settings = MpiShuffleSettings.of(jobConf);
        this.metrics = VersionParts.metrics(reduceId, jobConf);
        this.paths = new PathCounters(reporter);
        this.scheduler = new ShuffleSchedulerImpl<>(jobConf, context.getStatus(), reduceId, this, context.getCopyPhase(),
                context.getShuffledMapsCounter(), context.getReduceShuffleBytes(), context.getFailedShuffleCounter());
        this.merger = new MergeManagerImpl<>(reduceId, jobConf, context.getLocalFS(), context.getLocalDirAllocator(),
                reporter, context.getCodec(), context.getCombinerClass(), context.getCombineCollector(),
                context.getSpilledRecordsCounter(), context.getReduceCombineInputCounter(),
                context.getMergedMapOutputsCounter(), this, context.getMergePhase(), context.getMapOutputFile());
    }

    @Override
    public RawKeyValueIterator run() throws IOException, InterruptedException {
        if (local != null) {
            RawKeyValueIterator merged = local.run();
            context.getReporter().getCounter(MpiCopier.COUNTERS, "LOCAL_MAPS").setValue(context.getShuffledMapsCounter().getValue());
            return merged;
        }
        int maxEvents = Math.min(MAX_EVENTS_TO_FETCH,
                Math.max(MIN_EVENTS_TO_FETCH, MAX_RPC_OUTSTANDING_EVENTS / jobConf.getNumReduceTasks()));
        Thread events = ShuffleParts.eventFetcher(reduceId, context.getUmbilical(), scheduler, this, maxEvents);
        events.start();
        List<Thread> fetchers = startFetchers();
        while (!scheduler.waitUntilDone(PROGRESS_MILLIS)) {
            reporter.progress();
            rethrow("error in shuffle in ");
        }
        ShuffleParts.shutDown(events);
        for (Thread fetcher : fetchers) {
            ShuffleParts.shutDown(fetcher);
        }
        scheduler.close();
        recordHttpMaps();

        Task reduceTask = context.getReduceTask();
        context.getCopyPhase().complete();
        context.getStatus().setPhase(TaskStatus.Phase.SORT);
        reduceTask.statusUpdate(context.getUmbilical());
        RawKeyValueIterator merged;
        try {
            merged = merger.close();
        } catch (Throwable e) {
            throw ShuffleParts.shuffleError("Error while doing final merge ", e);
        }
        rethrow("error in shuffle in ");
        return merged;
    }

    private List<Thread> startFetchers() {
        SlotLink link = links.get();
        RankDirectory directory = link == null ? null : RankDirectory.of(link.directory());
        if (link == null) {
            LOG.info("MPI shuffle: this reducer does not run in a pool slot; all map outputs come over HTTP");
        } else {
            LOG.info("MPI shuffle: rank " + link.rank() + ", " + directory.size() + " Shuffle Managers in the directory, "
                    + settings);
        }
        Messages.Read template = new Messages.Read(0, settings.mode(), jobConf.getUser(), reduceId.getJobID().toString(), "",
                reduceId.getTaskID().getId(), 0, settings.chunkBytes(), false, false, -1, "");
        int count = jobConf.getInt(MRJobConfig.SHUFFLE_PARALLEL_COPIES, 5);
        List<Thread> fetchers = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            HostCopier copier = link == null || directory.size() == 0 ? null
                    : new MpiCopier<>(i + 1, link, directory, settings, template, context.getReduceTask().getShuffleSecret(),
                            scheduler, merger, metrics, reporter, paths);
            Thread fetcher = ShuffleParts.fetcher(jobConf, reduceId, scheduler,
                    copier != null && settings.fetchDuringMerge() ? new FetchDuringMerge<>(merger) : merger, reporter, metrics,
                    this, context.getReduceTask().getShuffleSecret(), copier);
            fetcher.start();
            fetchers.add(fetcher);
        }
        return fetchers;
    }

    /** What did not come over MPI came over HTTP: maps and their bytes (as REDUCE_SHUFFLE_BYTES counts them). */
    private void recordHttpMaps() {
        long mpi = reporter.getCounter(MpiCopier.COUNTERS, "MPI_MAPS").getValue();
        long all = context.getShuffledMapsCounter().getValue();
        reporter.getCounter(MpiCopier.COUNTERS, "HTTP_MAPS").setValue(Math.max(0, all - mpi));
        long mpiBytes = reporter.getCounter(MpiCopier.COUNTERS, "MPI_BYTES").getValue();
        long allBytes = context.getReduceShuffleBytes().getValue();
        reporter.getCounter(MpiCopier.COUNTERS, "HTTP_BYTES").setValue(Math.max(0, allBytes - mpiBytes));
    }

    private synchronized void rethrow(String message) throws IOException {
        if (throwable != null) {
            throw ShuffleParts.shuffleError(message + throwingThreadName, throwable);
        }
    }

    @Override
    public synchronized void reportException(Throwable t) {
        if (throwable == null) {
            throwable = t;
            throwingThreadName = Thread.currentThread().getName();
            synchronized (scheduler) {
                scheduler.notifyAll();
            }
        }
    }

    @Override
    public void close() {
        if (local != null) {
            local.close();
        }
    }
}
