package org.jvmreuse.shuffle.reduce;

import java.util.EnumMap;
import java.util.Map;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.Reporter;

/**
 * Which way each map output the MPI shuffle copied came, counted per reducer (so per job, as Hadoop
 * adds the reducers' counters up) in the group {@value MpiCopier#COUNTERS}: for every way
 * ({@link Way}) and locality ({@code SAME_HOST}: the Shuffle Manager's rank announced this
 * reducer's host name; {@code OTHER_HOST}: another), {@code <WAY>_SEGMENTS_<LOCALITY>} (map
 * outputs) and {@code <WAY>_BYTES_<LOCALITY>} (their bytes on disk, as {@code MPI_BYTES} counts
 * them), e.g. {@code LENT_FILE_BYTES_OTHER_HOST}. A segment counts once, under the way that
 * carried it (a lent file, else direct copies if any chunk came so, else MPI messages); its
 * bytes count under the way each chunk really took. So the segments of the six add up to
 * {@code MPI_MAPS} and the bytes to {@code MPI_BYTES}. All twelve are made at once, so a way not
 * taken shows as 0 in {@code mapred job -status}.
 */
final class PathCounters {
    /** How a segment's bytes reach the reducer. */
    enum Way {
        /** The reducer reads the Shuffle Manager's open map output file itself (pidfd_getfd + pread). */
        LENT_FILE,
        /** The reducer copies chunks out of the Shuffle Manager's memory (process_vm_readv). */
        DIRECT_COPY,
        /** Chunks travel as MPI messages (between hosts, or where the kernel allows neither of the above). */
        MPI_MESSAGE
    }

    private final Map<Way, Counters.Counter[]> segments = new EnumMap<>(Way.class);
    private final Map<Way, Counters.Counter[]> bytes = new EnumMap<>(Way.class);

    PathCounters(Reporter reporter) {
        for (Way way : Way.values()) {
            segments.put(way, new Counters.Counter[] {reporter.getCounter(MpiCopier.COUNTERS, segmentsName(way, false)),
                    reporter.getCounter(MpiCopier.COUNTERS, segmentsName(way, true))});
            bytes.put(way, new Counters.Counter[] {reporter.getCounter(MpiCopier.COUNTERS, bytesName(way, false)),
                    reporter.getCounter(MpiCopier.COUNTERS, bytesName(way, true))});
        }
    }

    static String segmentsName(Way way, boolean sameHost) {
        return way + "_SEGMENTS_" + locality(sameHost);
    }

    static String bytesName(Way way, boolean sameHost) {
        return way + "_BYTES_" + locality(sameHost);
    }

    private static String locality(boolean sameHost) {
        return sameHost ? "SAME_HOST" : "OTHER_HOST";
    }

    /** Counts one copied segment that came {@code way}, with {@code bytesByWay[w.ordinal()]} bytes each way. */
    void record(Way way, boolean sameHost, long[] bytesByWay) {
        int at = sameHost ? 1 : 0;
        segments.get(way)[at].increment(1);
        for (Way w : Way.values()) {
            if (bytesByWay[w.ordinal()] != 0) {
                bytes.get(w)[at].increment(bytesByWay[w.ordinal()]);
            }
        }
    }
}
