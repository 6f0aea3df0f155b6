package org.jvmreuse.it.hadoop.jobs;

import java.io.IOException;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.OutputCommitter;
import org.apache.hadoop.mapreduce.OutputFormat;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.output.FileOutputCommitter;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * A map-only job whose task 0 fails on its first attempt (or on every attempt with
 * {@code flaky.always=true}) in the way {@code flaky.mode} names: exception, exit (System.exit(1)),
 * oom (an OutOfMemoryError), halt (Runtime.halt(7)), none (no failure). Other tasks copy their
 * input line. With {@code flaky.hold-mb=N} every task first fills N MB of its heap and keeps it
 * until it ends (a task that needs the heap it asked for). With {@code flaky.am=true} it is the
 * job's MRAppMaster that fails, in its first attempt ({@link FlakyAmOutputFormat}): the tasks do
 * not fail.
 */
public class FlakyJob extends Configured implements Tool {
    public static class FlakyMapper extends Mapper<LongWritable, Text, Text, Text> {
        @Override
        protected void map(LongWritable key, Text value, Context context) throws IOException, InterruptedException {
            int holdMb = context.getConfiguration().getInt("flaky.hold-mb", 0);
            long[][] held = new long[4 * holdMb][];
            for (int i = 0; i < held.length; i++) {
                held[i] = new long[1 << 15]; // 256 KB each: not a humongous object for G1
            }
            boolean firstTask = context.getTaskAttemptID().getTaskID().getId() == 0;
            boolean firstAttempt = context.getTaskAttemptID().getId() == 0;
            boolean tasksFail = !context.getConfiguration().getBoolean("flaky.am", false);
            if (tasksFail && firstTask && (firstAttempt || context.getConfiguration().getBoolean("flaky.always", false))) {
                fail(context.getConfiguration().get("flaky.mode", "exception"));
            }
            context.write(value, new Text("ok" + (holdMb > 0 ? " held " + held.length / 4 + " MB" : "")));
        }

        @SuppressWarnings("unused")
        static void fail(String mode) {
            switch (mode) {
                case "exit" -> System.exit(1);
                case "halt" -> Runtime.getRuntime().halt(7);
                case "none" -> { }
                case "oom" -> {
                    long[][] hog = new long[1 << 20][];
                    for (int i = 0; i < hog.length; i++) {
                        hog[i] = new long[1 << 20]; // 8 MB each, until the heap is full
                    }
                }
                default -> throw new IllegalStateException("flaky task fails on purpose");
            }
        }
    }

    /**
     * Text output whose committer fails in the first attempt of the job's MRAppMaster (its
     * container is {@code container_..._01_000001}) as {@code flaky.mode} says: an exception or a
     * halt when the AM creates it (in its start-up; an exception ends the AM with status 1), an
     * exit when the AM sets the job up (in the committer's thread, once the AM has started: an
     * exit inside the start-up deadlocks a stock AM, whose shutdown hook waits for the start-up's
     * lock; a halt there would cut the job's history file short, which Hadoop 2.2's next attempt
     * cannot parse).
     */
    public static class FlakyAmOutputFormat<K, V> extends TextOutputFormat<K, V> {
        @Override
        public synchronized OutputCommitter getOutputCommitter(TaskAttemptContext context) throws IOException {
            String container = System.getenv("CONTAINER_ID");
            if (container == null || !container.endsWith("_01_000001")) {
                return super.getOutputCommitter(context);
            }
            String mode = context.getConfiguration().get("flaky.mode", "exception");
            if (!mode.equals("exit")) {
                FlakyMapper.fail(mode);
            }
            return new FileOutputCommitter(getOutputPath(context), context) {
                @Override
                public void setupJob(JobContext job) throws IOException {
                    FlakyMapper.fail(mode);
                    super.setupJob(job);
                }
            };
        }
    }

    @Override
    public int run(String[] args) throws Exception {
        if (getConf().getBoolean("flaky.am", false)) {
            getConf().setClass("mapreduce.job.outputformat.class", FlakyAmOutputFormat.class, OutputFormat.class);
        }
        return MapOnlyJob.run(getConf(), "flaky-" + getConf().get("flaky.mode", "exception"), FlakyJob.class, FlakyMapper.class, args);
    }

    public static void main(String[] args) throws Exception {
        System.exit(ToolRunner.run(new FlakyJob(), args));
    }
}
