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
 * With {@code sleep.child.pids} (a directory) each task first starts {@code sleep 600} and writes
 * its pid there.
 */
public class SleepJob extends Configured implements Tool {
    public static class SleepMapper extends Mapper<LongWritable, Text, Text, Text> {
        @Override
        protected void map(LongWritable key, Text value, Context context) throws IOException, InterruptedException {
            String pids = context.getConfiguration().get("sleep.child.pids");
            if (pids != null) {
                Process child = new ProcessBuilder("sleep", "600").start();
                Files.writeString(Path.of(pids, context.getTaskAttemptID() + ".pid"), Long.toString(child.pid()));
            }
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
