package org.jvmreuse.workloads.generate;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Writes generated lines into a new directory as {@code part-00000 ... part-(P-1)}, consecutive
 * lines in equal shares, so that a job over the directory runs P maps.
 */
public final class PartFiles {
    private PartFiles() {
    }

    public static void write(FileSystem fs, Path directory, int parts, long lines, Iterator<String> source)
            throws IOException {
        if (fs.exists(directory)) {
            throw new IOException(directory + " exists");
        }
        fs.mkdirs(directory);
        long written = 0;
        for (int p = 0; p < parts; p++) {
            long end = lines * (p + 1) / parts;
            Path file = new Path(directory, String.format("part-%05d", p));
            try (Writer out = new BufferedWriter(new OutputStreamWriter(fs.create(file, false), StandardCharsets.UTF_8),
                    1 << 16)) {
                for (; written < end; written++) {
                    out.write(source.next());
                    out.write('\n');
                }
            }
        }
    }
}
