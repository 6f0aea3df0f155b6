package org.jvmreuse.workloads.pagerank;

import java.io.IOException;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Mapper;
import org.jvmreuse.workloads.timing.Timeline;

/** The set-up job's map: counts nodes and the rank dangling nodes hold before iteration 1. Writes nothing. */
public class NodeCountMapper extends Mapper<LongWritable, Text, NullWritable, NullWritable> {
    @Override
    protected void setup(Context context) {
        Timeline.markCodeStart(context);
    }

    @Override
    protected void map(LongWritable offset, Text text, Context context) throws IOException, InterruptedException {
        String line = text.toString();
        if (line.isEmpty()) {
            return;
        }
        GraphLine node = GraphLine.parse(line);
        context.getCounter(PageRankCounter.NODES).increment(1);
        if (node.targets().length > 0) {
            return;
        }
        if (node.hasRank()) {
            context.getCounter(PageRankCounter.DANGLING_MASS).increment(PageRankMath.toCounter(node.rank()));
        } else {
            context.getCounter(PageRankCounter.DANGLING_NODES).increment(1);
        }
    }
}
