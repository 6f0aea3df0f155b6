package org.jvmreuse.workloads.kmeans;

import java.io.IOException;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.mapreduce.Reducer;

/** Adds up a map's points of one cluster. */
public class KMeansCombiner extends Reducer<IntWritable, PartialSum, IntWritable, PartialSum> {
    private final PartialSum total = new PartialSum();

    @Override
    protected void reduce(IntWritable cluster, Iterable<PartialSum> sums, Context context)
            throws IOException, InterruptedException {
        KMeansReducer.addUp(sums, total);
        context.write(cluster, total);
    }
}
