package org.jvmreuse.shuffle.reduce;

import java.io.IOException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import javax.crypto.SecretKey;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.task.reduce.MapHost;
import org.apache.hadoop.mapreduce.task.reduce.MapOutput;
import org.apache.hadoop.mapreduce.task.reduce.MergeManager;
import org.apache.hadoop.mapreduce.task.reduce.ShuffleClientMetrics;
import org.apache.hadoop.mapreduce.task.reduce.ShuffleSchedulerImpl;
import org.apache.hadoop.mapreduce.task.reduce.VersionParts;
import org.jvmreuse.shuffle.protocol.Announcement;
import org.jvmreuse.shuffle.protocol.Messages;
import org.jvmreuse.shuffle.protocol.RequestHash;

/**
 * A fetcher's MPI path: copies the map outputs of a host whose Shuffle Manager is in the
 * directory, one segment after another, into Hadoop's merge manager (memory or disk, as the
 * stock shuffle decides), and tells Hadoop's shuffle scheduler about every success and failure
 * exactly as the HTTP fetcher does, so penalties, fetch-failure reports to the AM and map
 * re-runs work unchanged. Unlike HTTP, one bad map output fails only that map.
 */
final class MpiCopier<K, V> implements HostCopier {
    private static final Log LOG = LogFactory.getLog(MpiCopier.class);
    static final String COUNTERS = "org.jvmreuse.shuffle.MpiShuffle";
    private static final String SHUFFLE_ERRORS = "Shuffle Errors";

    private final int id;
    private final SlotLink link;
    private final RankDirectory directory;
    private final MpiShuffleSettings settings;
    private final Messages.Read template;
    /** The job's shuffle secret: each READ carries its HMAC. */
    private final SecretKey secret;
    private final ShuffleSchedulerImpl<K, V> scheduler;
    private final MergeManager<K, V> merger;
    private final ShuffleClientMetrics metrics;
    private final Reporter reporter;
    private final Counters.Counter ioErrors;
    private final Counters.Counter mpiMaps;
    private final Counters.Counter mpiBytes;
    private final Counters.Counter lostServers;
    private final PathCounters paths;
    /** The length of the segment copied last: how many chunks to ask for at once for the next. */
    private long lastSegmentLength;
    /** The next map output of the host being copied, already asked for. */
    private SegmentStream ahead;

    MpiCopier(int id, SlotLink link, RankDirectory directory, MpiShuffleSettings settings, Messages.Read template,
              SecretKey secret, ShuffleSchedulerImpl<K, V> scheduler, MergeManager<K, V> merger, ShuffleClientMetrics metrics,
              Reporter reporter, PathCounters paths) {
        this.id = id;
        this.paths = paths;
        this.link = link;
        this.directory = directory;
        this.settings = settings;
        this.template = template;
        this.secret = secret;
        this.scheduler = scheduler;
        this.merger = merger;
        this.metrics = metrics;
        this.reporter = reporter;
        this.ioErrors = reporter.getCounter(SHUFFLE_ERRORS, "IO_ERROR");
        this.mpiMaps = reporter.getCounter(COUNTERS, "MPI_MAPS");
        this.mpiBytes = reporter.getCounter(COUNTERS, "MPI_BYTES");
        this.lostServers = reporter.getCounter(COUNTERS, "LOST_SHUFFLE_MANAGERS");
    }

    /** What became of one map output; LOST: the host's Shuffle Manager is gone. */
    private enum Outcome { COPIED, FAILED, STOP, LOST }

    /**
     * Copies the host's map outputs over MPI; false if its Shuffle Manager is not in the
     * directory or is gone, found before or during the copy: what is left of the host's outputs
     * then goes over HTTP, with no fetch failure reported (the outputs are fine).
     */
    @Override
    public boolean copy(MapHost host) throws InterruptedException {
        int rank = directory.rankOf(host.getHostName());
        if (rank < 0 || link.isLost(rank)) {
            return false;
        }
        List<TaskAttemptID> maps = scheduler.getMapsForHost(host);
        // What is not copied goes back to the host for another try after its penalty, as in
        // Hadoop's fetcher; the scheduler counts the failures and reports them to the AM.
        Set<TaskAttemptID> remaining = new LinkedHashSet<>(maps);
        boolean lost = false;
        try {
            for (int i = 0; i < maps.size(); i++) {
                SegmentStream segment = ahead != null ? ahead : request(rank, maps.get(i));
                ahead = null;
                TaskAttemptID following = i + 1 < maps.size() ? maps.get(i + 1) : null;
                Outcome outcome;
                try (segment) {
                    outcome = copy(host, rank, maps.get(i), segment, following);
                }
                if (outcome == Outcome.COPIED) {
                    remaining.remove(maps.get(i));
                } else if (outcome == Outcome.STOP) {
                    break;
                } else if (outcome == Outcome.LOST) {
                    lost = true;
                    break;
                }
            }
        } finally {
            if (ahead != null) {
                ahead.close();
                ahead = null;
            }
            for (TaskAttemptID left : remaining) {
                scheduler.putBackKnownMapOutput(host, left);
            }
        }
        return !lost;
    }

    private SegmentStream request(int rank, TaskAttemptID map) {
        boolean direct = settings.direct() && link.canCopyDirect(rank);
        boolean file = settings.direct() && settings.directFiles() && link.canTakeFiles(rank);
        Messages.Read first = new Messages.Read(0, settings.mode(), template.user(), template.jobId(), map.toString(),
                template.reduce(), 0, direct || file ? settings.directChunkBytes() : settings.chunkBytes(), direct, file, -1,
                RequestHash.of(secret, Announcement.parse(link.directory().get(rank)).port(), template.jobId(), template.reduce(),
                        map.toString()));
        return new SegmentStream(link, rank, first, settings.window(), settings.timeoutMillis(), settings.livenessMillis(),
                lastSegmentLength);
    }

    /**
     * Copies one map output. Once its memory or disk is reserved, in concurrent mode, the first
     * chunks of {@code following} (if not null) are asked for into {@link #ahead}, so that the
     * pipeline does not drain between segments.
     */
    private Outcome copy(MapHost host, int rank, TaskAttemptID map, SegmentStream segment, TaskAttemptID following) {
        long start = System.currentTimeMillis();
        MapOutput<K, V> output = null;
        try {
            segment.open();
            lastSegmentLength = segment.segmentLength();
            try {
                output = merger.reserve(map, segment.rawLength(), id);
            } catch (IOException e) {
                ioErrors.increment(1);
                scheduler.reportLocalError(e);
                return Outcome.STOP;
            }
            if (output == null) {
                LOG.info("mpi-fetcher#" + id + " - MergeManager returned status WAIT ...");
                return Outcome.STOP;
            }
            if (following != null && settings.mode() == Messages.Mode.CONCURRENT) {
                ahead = request(rank, following);
            }
            LOG.info("mpi-fetcher#" + id + " about to shuffle output of map " + map + " decomp: " + segment.rawLength()
                    + " len: " + segment.segmentLength() + " to " + output.getDescription() + " from MPI rank " + rank);
            try {
                output.shuffle(host, segment, segment.segmentLength(), segment.rawLength(), metrics, reporter);
            } catch (InternalError e) {
                throw new IOException(e); // codecs report corrupt input this way
            }
            VersionParts.copySucceeded(scheduler, map, host, segment.segmentLength(), start, System.currentTimeMillis(), output);
            metrics.successFetch();
            mpiMaps.increment(1);
            mpiBytes.increment(segment.segmentLength());
            paths.record(segment.way(), link.sameHost(rank), segment.bytesByWay());
            return Outcome.COPIED;
        } catch (IOException e) {
            if (ServerLostException.in(e)) {
                if (output != null) {
                    output.abort();
                }
                if (link.markLost(rank)) {
                    lostServers.increment(1);
                }
                LOG.warn("MPI shuffle: " + e.getMessage() + "; the map outputs of " + host.getHostName()
                        + " come over HTTP from now on");
                return Outcome.LOST;
            }
            ioErrors.increment(1);
            LOG.warn("Failed to shuffle output of " + map + " from " + host.getHostName() + " over MPI (rank " + rank + ")", e);
            if (output != null) {
                output.abort();
            }
            metrics.failedFetch();
            scheduler.copyFailed(map, host, true, false);
            return Outcome.FAILED;
        }
    }
}
