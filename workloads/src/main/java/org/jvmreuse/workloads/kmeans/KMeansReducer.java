package org.jvmreuse.workloads.kmeans;

import java.io.IOException;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Reducer;
import org.jvmreuse.workloads.timing.Timeline;

/** A cluster's new centroid: the mean of its points, as a centroid line. */
public class KMeansReducer extends Reducer<IntWritable, PartialSum, IntWritable, Text> {
    private final PartialSum total = new PartialSum();
    private final Text line = new Text();

    @Override
    protected void setup(Context context) {
        Timeline.markCodeStart(context);
    }

    @Override
    protected void reduce(IntWritable cluster, Iterable<PartialSum> sums, Context context)
            throws IOException, InterruptedException {
        addUp(sums, total);
        line.set(Points.format(total.mean()));
        context.write(cluster, line);
        context.getCounter(KMeansJobs.Counter.POINTS).increment(total.count());
    }

    /** {@code total} := the sum of {@code sums} (Hadoop reuses the value object, so add, never keep). */
    static void addUp(Iterable<PartialSum> sums, PartialSum total) {
        boolean first = true;
        for (PartialSum s : sums) {
            if (first) {
                total.clear(s.dimensions());
                first = false;
            }
            total.add(s);
        }
    }
}
