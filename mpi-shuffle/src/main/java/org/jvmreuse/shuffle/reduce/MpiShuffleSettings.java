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
 * outputs go over HTTP.
 */
record MpiShuffleSettings(Messages.Mode mode, int chunkBytes, int window, long timeoutMillis, long livenessMillis) {
    static final String MODE = "jvmreuse.shuffle.mode";
    static final String CHUNK = "jvmreuse.shuffle.chunk-bytes";
    static final String WINDOW = "jvmreuse.shuffle.window";
    static final String LIVENESS = "jvmreuse.shuffle.liveness-ms";
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
        long timeout = conf.getInt("mapreduce.reduce.shuffle.read.timeout", 180_000);
        long liveness = conf.getLong(LIVENESS, 3000);
        if (liveness < 10) {
            throw new IllegalArgumentException(LIVENESS + " must be at least 10, not " + liveness);
        }
        return new MpiShuffleSettings(parsed, chunk, parsed == Messages.Mode.BLOCKING ? 1 : window, timeout, liveness);
    }
}
