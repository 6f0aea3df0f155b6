package org.jvmreuse.it.hadoop.jobs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * A map-only job whose tasks sleep {@code sleep.ms} each, then copy their input line. Args: in out.
 * With {@code sleep.leftovers=DIR} each task first starts a child process ({@code sleep 600}, its PID
 * in {@code DIR/<task>.pid}) and, with {@code sleep.leftovers.hook=true}, a shutdown hook that writes
 * {@code DIR/<task>.hook} after 3 s: what an ended container must not leave behind.
 */
public class SleepJob extends Configured implements Tool {
    public static class SleepMapper extends Mapper<LongWritable, Text, Text, Text> {
        @Override
        protected void setup(Context context) throws IOException {
            String dir = context.getConfiguration().get("sleep.leftovers");
            if (dir == null) {
                return;
            }
            String task = context.getTaskAttemptID().getTaskID().toString();
            Process child = new ProcessBuilder("sleep", "600").start();
            Files.writeString(Path.of(dir, task + ".pid"), Long.toString(child.pid()));
            if (!context.getConfiguration().getBoolean("sleep.leftovers.hook", false)) {
                return;
            }
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    Thread.sleep(3000);
                    Files.writeString(Path.of(dir, task + ".hook"), "ran");
                } catch (Exception e) {
                    // cut off: what a kill should do
                }
            }));
        }

        @Override
        protected void map(LongWritable key, Text value, Context context) throws IOException, InterruptedException {
            Thread.sleep(context.getConfiguration().getLong("sleep.ms", 1000));
            context.write(value, new Text(context.getTaskAttemptID().getTaskID().toString()));
        }
    }

    @Override
    public int run(String[] args) throws Exception {
        return MapOnlyJob.run(getConf(), "sleep", SleepJob.class, SleepMapper.class, args);
    }

    public static void main(String[] args) throws Exception {
        System.exit(ToolRunner.run(new SleepJob(), args));
    }
}
