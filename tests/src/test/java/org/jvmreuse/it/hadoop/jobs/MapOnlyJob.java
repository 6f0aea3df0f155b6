package org.jvmreuse.it.hadoop.jobs;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.NLineInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;

/** The shape of every test job: map only, one map task per input line, text out. Args: in out. */
final class MapOnlyJob {
    private MapOnlyJob() {
    }

    static int run(Configuration conf, String name, Class<?> jarClass,
                   Class<? extends Mapper<?, ?, ?, ?>> mapper, String[] args) throws Exception {
        Job job = Job.getInstance(conf, name);
        job.setJarByClass(jarClass);
        job.setMapperClass(mapper);
        job.setNumReduceTasks(0);
        job.setInputFormatClass(NLineInputFormat.class);
        job.setOutputKeyClass(Text.class);
        job.setOutputValueClass(Text.class);
        FileInputFormat.addInputPath(job, new Path(args[0]));
        FileOutputFormat.setOutputPath(job, new Path(args[1]));
        return job.waitForCompletion(true) ? 0 : 1;
    }
}
