package org.jvmreuse.it.hadoop.jobs;

import java.io.IOException;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.NLineInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/** A map-only job whose tasks sleep {@code sleep.ms} each, then copy their input line. Args: in out. */
public class SleepJob extends Configured implements Tool {
    public static class SleepMapper extends Mapper<LongWritable, Text, Text, Text> {
        @Override
        protected void map(LongWritable key, Text value, Context context) throws IOException, InterruptedException {
            Thread.sleep(context.getConfiguration().getLong("sleep.ms", 1000));
            context.write(value, new Text(context.getTaskAttemptID().getTaskID().toString()));
        }
    }

    @Override
    public int run(String[] args) throws Exception {
        Job job = Job.getInstance(getConf(), "sleep");
        job.setJarByClass(SleepJob.class);
        job.setMapperClass(SleepMapper.class);
        job.setNumReduceTasks(0);
        job.setInputFormatClass(NLineInputFormat.class);
        job.setOutputKeyClass(Text.class);
        job.setOutputValueClass(Text.class);
        FileInputFormat.addInputPath(job, new Path(args[0]));
        FileOutputFormat.setOutputPath(job, new Path(args[1]));
        return job.waitForCompletion(true) ? 0 : 1;
    }

    public static void main(String[] args) throws Exception {
        System.exit(ToolRunner.run(new SleepJob(), args));
    }
}
