package org.jvmreuse.shuffle.reduce;

import org.apache.hadoop.mapred.JobConf;
import org.jvmreuse.shuffle.protocol.Messages;

/**
 * A job's MPI shuffle settings: {@code jvmreuse.shuffle.mode} (concurrent, the default, or
 * blocking: one chunk at a time, as in the FX10 paper), {@code jvmreuse.shuffle.chunk-bytes}
 * (default 1 MiB), {@code jvmreuse.shuffle.window} (chunk reads in flight per fetch in concurrent
 * mode, default 4), Hadoop's {@code mapreduce.reduce.shuffle.read.timeout} for every wait, and
 * {@code jvmreuse.shuffle.liveness-ms} (default 3000): how long a Shuffle Manager may be silent
 * before it is asked whether it is there, and how long it then has to answer before its host's
 * outputs go over HTTP. {@code jvmreuse.shuffle.direct} (default true): a fetcher copies the
 * chunks of a Shuffle Manager on its own host straight out of that process (one copy, no MPI
 * transfer), in chunks of {@code jvmreuse.shuffle.direct-chunk-bytes} (default 4 MiB: such a
 * chunk needs no buffer on the reducer's side, and larger ones take fewer round trips); false
 * sends them over MPI as between hosts. {@code jvmreuse.shuffle.direct-files} (default true), with
 * direct: the fetcher takes the Shuffle Manager's open map output file out of its process and
 * reads the whole segment itself (Linux 5.6 pidfd_getfd, one request per segment, no mapping);
 * false, or a kernel without it: chunk by chunk out of the manager's memory.
 * {@code jvmreuse.shuffle.fetch-during-merge} (default true): fetchers go on while an in-memory
 * merge runs, within the merge manager's memory limit ({@link FetchDuringMerge}); false: they
 * wait for it, as Hadoop's.
 */
record MpiShuffleSettings(Messages.Mode mode, int chunkBytes, int window, long timeoutMillis, long livenessMillis,
                          boolean direct, int directChunkBytes, boolean directFiles, boolean fetchDuringMerge) {
    static final String MODE = "jvmreuse.shuffle.mode";
    static final String CHUNK = "jvmreuse.shuffle.chunk-bytes";
    static final String WINDOW = "jvmreuse.shuffle.window";
    static final String LIVENESS = "jvmreuse.shuffle.liveness-ms";
    static final String DIRECT = "jvmreuse.shuffle.direct";
    static final String DIRECT_CHUNK = "jvmreuse.shuffle.direct-chunk-bytes";
    static final String DIRECT_FILES = "jvmreuse.shuffle.direct-files";
    static final String FETCH_DURING_MERGE = "jvmreuse.shuffle.fetch-during-merge";
    private static final int MAX_CHUNK = 8 << 20;

    static MpiShuffleSettings of(JobConf conf) {
        String mode = conf.getTrimmed(MODE, "concurrent");
        Messages.Mode parsed = switch (mode) {
            case "concurrent" -> Messages.Mode.CONCURRENT;
            case "blocking" -> Messages.Mode.BLOCKING;
            default -> throw new IllegalArgumentException(MODE + " must be 'concurrent' or 'blocking', not '" + mode + "'");
        };
        int chunk = conf.getInt(CHUNK, 1 << 20);
        if (chunk < 4096 || chunk > MAX_CHUNK) {
            throw new IllegalArgumentException(CHUNK + " must be between 4096 and " + MAX_CHUNK + ", not " + chunk);
        }
        int window = conf.getInt(WINDOW, 4);
        if (window < 1) {
            throw new IllegalArgumentException(WINDOW + " must be at least 1, not " + window);
        }
        int directChunk = conf.getInt(DIRECT_CHUNK, 4 << 20);
        if (directChunk < 4096 || directChunk > MAX_CHUNK) {
            throw new IllegalArgumentException(DIRECT_CHUNK + " must be between 4096 and " + MAX_CHUNK + ", not " + directChunk);
        }
        long timeout = conf.getInt("mapreduce.reduce.shuffle.read.timeout", 180_000);
        long liveness = conf.getLong(LIVENESS, 3000);
        if (liveness < 10) {
            throw new IllegalArgumentException(LIVENESS + " must be at least 10, not " + liveness);
        }
        return new MpiShuffleSettings(parsed, chunk, parsed == Messages.Mode.BLOCKING ? 1 : window, timeout, liveness,
                conf.getBoolean(DIRECT, true), directChunk, conf.getBoolean(DIRECT_FILES, true),
                conf.getBoolean(FETCH_DURING_MERGE, true));
    }
}
