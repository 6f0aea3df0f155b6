package org.jvmreuse.workloads.kmeans;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Mapper;
import org.jvmreuse.workloads.timing.Timeline;

/** Assigns each point to its nearest centroid (read from the side file the job names). */
public class KMeansMapper extends Mapper<LongWritable, Text, IntWritable, PartialSum> {
    private final IntWritable cluster = new IntWritable();
    private final PartialSum one = new PartialSum();
    private Centroids centroids;

    @Override
    protected void setup(Context context) throws IOException {
        Timeline.markCodeStart(context);
        Configuration conf = context.getConfiguration();
        Path file = KMeansJobs.centroids(conf);
        centroids = Centroids.read(file.getFileSystem(conf), file);
    }

    @Override
    protected void map(LongWritable offset, Text line, Context context) throws IOException, InterruptedException {
        double[] point = Points.parse(line.toString());
        if (point == null) {
            return;
        }
        cluster.set(centroids.nearest(point));
        one.set(point);
        context.write(cluster, one);
    }
}
