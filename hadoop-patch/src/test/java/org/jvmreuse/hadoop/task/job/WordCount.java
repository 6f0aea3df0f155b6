package org.jvmreuse.hadoop.task.job;

import java.io.IOException;
import java.util.StringTokenizer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.FileSystemCounter;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;

/**
 * A whole MapReduce job through the LocalJobRunner (MapTask, ReduceTask, merges, counters in
 * this JVM), reading "job.dir"/in and writing "job.dir"/out-N; prints its counters.
 */
public final class WordCount {
    public static void main(String[] args) throws Exception {
        String dir = System.getProperty("job.dir");
        Configuration conf = new Configuration();
        conf.set("hadoop.tmp.dir", dir + "/tmp");
        conf.setInt("mapreduce.client.completion.pollinterval", 50);
        Job job = Job.getInstance(conf, "word count");
        job.setJarByClass(WordCount.class);
        job.setMapperClass(Tokens.class);
        job.setCombinerClass(Sum.class);
        job.setReducerClass(Sum.class);
        job.setOutputKeyClass(Text.class);
        job.setOutputValueClass(IntWritable.class);
        FileInputFormat.addInputPath(job, new Path(dir, "in"));
        FileOutputFormat.setOutputPath(job, new Path(dir, "out-" + System.nanoTime()));
        if (!job.waitForCompletion(false)) {
            throw new IllegalStateException("word count failed");
        }
        Counters c = job.getCounters();
        System.out.println("fileBytesRead=" + c.findCounter("file", FileSystemCounter.BYTES_READ).getValue());
        System.out.println("fileBytesWritten=" + c.findCounter("file", FileSystemCounter.BYTES_WRITTEN).getValue());
        System.out.println("mapInputRecords=" + c.findCounter(TaskCounter.MAP_INPUT_RECORDS).getValue());
        System.out.println("reduceOutputRecords=" + c.findCounter(TaskCounter.REDUCE_OUTPUT_RECORDS).getValue());
    }

    /** Splits lines into words. */
    public static class Tokens extends Mapper<LongWritable, Text, Text, IntWritable> {
        private static final IntWritable ONE = new IntWritable(1);

        @Override
        protected void map(LongWritable offset, Text line, Context context) throws IOException, InterruptedException {
            StringTokenizer words = new StringTokenizer(line.toString());
            while (words.hasMoreTokens()) {
                context.write(new Text(words.nextToken()), ONE);
            }
        }
    }

    /** Sums counts. */
    public static class Sum extends Reducer<Text, IntWritable, Text, IntWritable> {
        @Override
        protected void reduce(Text word, Iterable<IntWritable> counts, Context context)
                throws IOException, InterruptedException {
            int sum = 0;
            for (IntWritable c : counts) {
                sum += c.get();
            }
            context.write(word, new IntWritable(sum));
        }
    }
}
