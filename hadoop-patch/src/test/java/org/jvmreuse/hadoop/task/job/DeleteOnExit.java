package org.jvmreuse.hadoop.task.job;

import java.io.File;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/** Marks the file {@code args[0]} deleteOnExit in its FileSystem, then halts ({@code args[1]} "halt") or returns. */
public final class DeleteOnExit {
    public static void main(String[] args) throws Exception {
        Path file = new Path(new File(args[0]).toURI());
        FileSystem.get(file.toUri(), new Configuration()).deleteOnExit(file);
        if (args[1].equals("halt")) {
            Runtime.getRuntime().halt(0);
        }
    }
}
