package org.jvmreuse.it.hadoop.jobs;

import java.io.IOException;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * A job whose maps copy their lines and whose one reducer sleeps {@code sleep.ms} before it
 * starts: its map outputs stay on their nodes meanwhile. Args: in out.
 */
public class SlowReduceJob extends Configured implements Tool {
    public static class SlowReducer extends Reducer<LongWritable, Text, LongWritable, Text> {
        @Override
        protected void setup(Context context) throws InterruptedException {
            Thread.sleep(context.getConfiguration().getLong("sleep.ms", 60_000));
        }
    }

    @Override
    public int run(String[] args) throws Exception {
        Job job = Job.getInstance(getConf(), "slow-reduce");
        job.setJarByClass(SlowReduceJob.class);
        job.setMapperClass(Mapper.class);
        job.setReducerClass(SlowReducer.class);
        job.setNumReduceTasks(1);
        job.setOutputKeyClass(LongWritable.class);
        job.setOutputValueClass(Text.class);
        FileInputFormat.addInputPath(job, new Path(args[0]));
        FileOutputFormat.setOutputPath(job, new Path(args[1]));
        return job.waitForCompletion(true) ? 0 : 1;
    }

    public static void main(String[] args) throws Exception {
        System.exit(ToolRunner.run(new SlowReduceJob(), args));
    }
}
