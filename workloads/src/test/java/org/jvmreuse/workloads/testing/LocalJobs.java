package org.jvmreuse.workloads.testing;

import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/** Jobs in this JVM: Hadoop's LocalJobRunner on the local file system, scratch space under a test's directory. */
public final class LocalJobs {
    private LocalJobs() {
    }

    public static Configuration conf(Path dir) {
        Configuration conf = new Configuration();
        conf.set("mapreduce.framework.name", "local");
        conf.set(FileSystem.FS_DEFAULT_NAME_KEY, "file:///");
        conf.set("hadoop.tmp.dir", dir.resolve("hadoop-tmp").toString());
        return conf;
    }

    public static FileSystem fs(Path dir) throws Exception {
        return FileSystem.getLocal(conf(dir));
    }

    /** Runs a command's tool as Main would, with the local configuration. */
    public static int run(Path dir, Tool tool, String... args) throws Exception {
        return ToolRunner.run(conf(dir), tool, args);
    }

    public static org.apache.hadoop.fs.Path path(Path local) {
        return new org.apache.hadoop.fs.Path(local.toUri());
    }
}
