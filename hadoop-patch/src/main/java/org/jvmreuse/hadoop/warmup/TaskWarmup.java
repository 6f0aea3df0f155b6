package org.jvmreuse.hadoop.warmup;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.map.TokenCounterMapper;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.reduce.IntSumReducer;

/**
 * What a slot runs before it serves, so that Hadoop's task code is loaded and JIT-compiled
 * before the first real task: a small word count through Hadoop's LocalJobRunner in the
 * working directory (configuration parsing, the map side's sort and spill, the merge, the
 * reduce, the output committer, counters, the local file system), then the reduce side of a real
 * shuffle, over HTTP and, with the MPI shuffle on the class path, over MPI ({@link ShuffleWarmup}:
 * about {@value #SHUFFLE_KB_ENV} KiB of map output, default {@value #SHUFFLE_KB}, 0 for none), so
 * that the first reducer does not compile its fetch and merge code. Select it for a pool with
 * {@code --warmup-main org.jvmreuse.hadoop.warmup.TaskWarmup} and the Hadoop class path the
 * executor shares as {@code --warmup-cp}; the run hooks reset what it leaves, as after a task.
 */
public final class TaskWarmup {
    private static final int LINES = 2000;
    static final String SHUFFLE_KB_ENV = "JVMREUSE_WARMUP_SHUFFLE_KB";
    static final int SHUFFLE_KB = 1024;

    private TaskWarmup() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of("").toAbsolutePath();
        Path input = Files.createDirectories(dir.resolve("in"));
        Files.writeString(input.resolve("words.txt"), text(), StandardCharsets.UTF_8);
        Configuration conf = new Configuration();
        conf.set("mapreduce.framework.name", "local");
        conf.set("fs.defaultFS", "file:///");
        conf.set("hadoop.tmp.dir", dir.resolve("tmp").toString());
        conf.set("mapreduce.jobtracker.staging.root.dir", dir.resolve("staging").toString());
        conf.setInt("mapreduce.client.completion.pollinterval", 20); // default: 5 s of idle waiting
        conf.setInt("mapreduce.task.io.sort.mb", 16);
        Job job = Job.getInstance(conf, "jvmreuse-warmup");
        job.setMapperClass(TokenCounterMapper.class);
        job.setCombinerClass(IntSumReducer.class);
        job.setReducerClass(IntSumReducer.class);
        job.setOutputKeyClass(Text.class);
        job.setOutputValueClass(IntWritable.class);
        FileInputFormat.addInputPath(job, new org.apache.hadoop.fs.Path(input.toUri()));
        FileOutputFormat.setOutputPath(job, new org.apache.hadoop.fs.Path(dir.resolve("out").toUri()));
        if (!job.waitForCompletion(false)) {
            throw new IOException("the warm-up job failed");
        }
        long shuffleKb = shuffleKb(System.getenv(SHUFFLE_KB_ENV));
        if (shuffleKb > 0) {
            System.out.println("warm-up shuffle: " + ShuffleWarmup.run(Files.createDirectories(dir.resolve("shuffle")), shuffleKb << 10));
        }
    }

    static long shuffleKb(String setting) {
        if (setting == null || setting.isBlank()) {
            return SHUFFLE_KB;
        }
        try {
            long kb = Long.parseLong(setting.trim());
            if (kb >= 0) {
                return kb;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new IllegalArgumentException(SHUFFLE_KB_ENV + " must be a number of KiB >= 0, not '" + setting + "'");
    }

    private static String text() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < LINES; i++) {
            sb.append("word").append(i % 97).append(" other").append(i % 13).append(' ').append(i).append('\n');
        }
        return sb.toString();
    }
}
