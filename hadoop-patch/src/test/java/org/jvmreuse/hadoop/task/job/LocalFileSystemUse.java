package org.jvmreuse.hadoop.task.job;

import java.io.File;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Prints what the local FileSystem shows a task when it starts (its working directory, what
 * the statistics have counted), writes 1000 bytes to the file {@code args[0]} and prints what
 * the statistics count for that; {@code args[1]}, if given, becomes the file system's working
 * directory (in its cache, for a later task to find if the cache were kept).
 */
public final class LocalFileSystemUse {
    public static void main(String[] args) throws Exception {
        FileSystem fs = FileSystem.getLocal(new Configuration());
        System.out.println("workingDirectory=" + fs.getWorkingDirectory());
        System.out.println("countedBefore=" + counted());
        try (FSDataOutputStream out = fs.create(new Path(new File(args[0]).toURI()))) {
            out.write(new byte[1000]);
        }
        System.out.println("written=" + FileSystem.getStatistics("file", fs.getClass()).getBytesWritten());
        if (args.length > 1) {
            fs.setWorkingDirectory(new Path(args[1]));
        }
    }

    private static long counted() {
        long counted = 0;
        for (FileSystem.Statistics s : FileSystem.getAllStatistics()) {
            counted += s.getBytesRead() + s.getBytesWritten() + s.getReadOps() + s.getWriteOps();
        }
        return counted;
    }
}
