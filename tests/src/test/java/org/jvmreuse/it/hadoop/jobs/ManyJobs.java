package org.jvmreuse.it.hadoop.jobs;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * {@code count} map-only jobs in a row from one client, each copying every input line (one map
 * task per line) into {@code out-<first + i>}, and checking that its output holds every line once.
 * Args: count first in out. Prints one line per job: "job N ok" or what was wrong; exit 1 if any was.
 */
public class ManyJobs extends Configured implements Tool {
    public static class CopyMapper extends Mapper<LongWritable, Text, Text, Text> {
        @Override
        protected void map(LongWritable key, Text value, Context context) throws java.io.IOException, InterruptedException {
            context.write(value, new Text(context.getJobID().toString()));
        }
    }

    @Override
    public int run(String[] args) throws Exception {
        int count = Integer.parseInt(args[0]);
        int first = Integer.parseInt(args[1]);
        Path in = new Path(args[2]);
        FileSystem fs = in.getFileSystem(getConf());
        long lines = lines(fs, in);
        int failed = 0;
        for (int i = first; i < first + count; i++) {
            Path out = new Path(args[3] + "-" + i);
            int rc = MapOnlyJob.run(getConf(), "many-" + i, ManyJobs.class, CopyMapper.class,
                    new String[] {in.toString(), out.toString()});
            long written = lines(fs, out);
            boolean ok = rc == 0 && written == lines;
            System.out.println("job " + i + (ok ? " ok" : " FAILED: exit " + rc + ", " + written + " of " + lines + " lines"));
            failed += ok ? 0 : 1;
        }
        return failed == 0 ? 0 : 1;
    }

    /** Lines in the files of {@code dir} (part files and input alike), hidden and marker files aside. */
    private static long lines(FileSystem fs, Path dir) throws java.io.IOException {
        long n = 0;
        for (FileStatus f : fs.listStatus(dir)) {
            String name = f.getPath().getName();
            if (f.isFile() && !name.startsWith("_") && !name.startsWith(".")) {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(fs.open(f.getPath()), StandardCharsets.UTF_8))) {
                    n += r.lines().count();
                }
            }
        }
        return n;
    }

    public static void main(String[] args) throws Exception {
        System.exit(ToolRunner.run(new ManyJobs(), args));
    }
}
