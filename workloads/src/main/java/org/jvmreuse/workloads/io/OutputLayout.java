package org.jvmreuse.workloads.io;

import java.io.IOException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Names inside an iterative run's output directory: {@code iteration-001}, {@code iteration-002}, ...
 * hold each iteration's job output; other per-iteration files use the same numbering.
 */
public final class OutputLayout {
    public static final String ITERATION = "iteration-";

    private OutputLayout() {
    }

    public static Path numbered(Path output, String prefix, int iteration) {
        return new Path(output, String.format("%s%03d", prefix, iteration));
    }

    public static Path iteration(Path output, int iteration) {
        return numbered(output, ITERATION, iteration);
    }

    /** The highest number of an entry {@code prefix + number} in {@code output}, or 0 if none. */
    public static int last(FileSystem fs, Path output, String prefix) throws IOException {
        int last = 0;
        for (FileStatus child : fs.listStatus(output)) {
            String name = child.getPath().getName();
            if (name.startsWith(prefix) && name.substring(prefix.length()).matches("[0-9]+")) {
                last = Math.max(last, Integer.parseInt(name.substring(prefix.length())));
            }
        }
        return last;
    }
}
