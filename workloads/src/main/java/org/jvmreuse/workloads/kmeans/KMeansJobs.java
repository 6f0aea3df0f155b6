package org.jvmreuse.workloads.kmeans;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;

/** Configures a K-means iteration job; the centroids reach its maps as a side file named in the job's conf. */
public final class KMeansJobs {
    static final String CENTROIDS = "jvmreuse.kmeans.centroids";

    /** Job counters. */
    public enum Counter {
        /** Points assigned (all points, every iteration). */
        POINTS
    }

    private KMeansJobs() {
    }

    /** {@code centroids} must be a path every task can read (qualified: HDFS, or file:// on a shared file system). */
    public static void iteration(Job job, Path points, Path centroids, Path output) throws IOException {
        job.getConfiguration().set(CENTROIDS, centroids.toString());
        job.setMapperClass(KMeansMapper.class);
        job.setCombinerClass(KMeansCombiner.class);
        job.setReducerClass(KMeansReducer.class);
        job.setMapOutputKeyClass(IntWritable.class);
        job.setMapOutputValueClass(PartialSum.class);
        job.setOutputKeyClass(IntWritable.class);
        job.setOutputValueClass(Text.class);
        FileInputFormat.addInputPath(job, points);
        FileOutputFormat.setOutputPath(job, output);
    }

    static Path centroids(Configuration conf) {
        String path = conf.get(CENTROIDS);
        if (path == null) {
            throw new IllegalStateException(CENTROIDS + " is not set");
        }
        return new Path(path);
    }
}
