package org.jvmreuse.workloads.pagerank;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.Reducer;
import org.jvmreuse.workloads.timing.Timeline;

/**
 * New rank of a node from its contributions, written as a ranked line; counts what the next
 * iteration and the convergence test need (nodes, dangling mass, L1 change).
 */
public class PageRankReducer extends Reducer<Text, RankMessage, Text, Text> {
    private final Text value = new Text();
    private long nodes;
    private double damping;
    private double danglingMass;
    private Counter written;
    private Counter dangling;
    private Counter change;
    private Counter missing;

    @Override
    protected void setup(Context context) {
        Timeline.markCodeStart(context);
        Configuration conf = context.getConfiguration();
        nodes = PageRankJobs.nodes(conf);
        damping = PageRankJobs.damping(conf);
        danglingMass = PageRankJobs.danglingMass(conf);
        written = context.getCounter(PageRankCounter.NODES);
        dangling = context.getCounter(PageRankCounter.DANGLING_MASS);
        change = context.getCounter(PageRankCounter.L1_CHANGE);
        missing = context.getCounter(PageRankCounter.MISSING_NODES);
    }

    @Override
    protected void reduce(Text node, Iterable<RankMessage> messages, Context context)
            throws IOException, InterruptedException {
        double inbound = 0;
        double oldRank = 0;
        String neighbours = null;
        for (RankMessage m : messages) {
            if (!m.isNode()) {
                inbound += m.value();
            } else if (neighbours != null) {
                throw new IOException("node " + node + " has more than one line");
            } else {
                oldRank = m.value();
                neighbours = m.neighbours();
            }
        }
        if (neighbours == null) {
            missing.increment(1);
            return;
        }
        double rank = PageRankMath.newRank(inbound, damping, nodes, danglingMass);
        value.set(GraphLine.rankedValue(rank, neighbours));
        context.write(node, value);
        written.increment(1);
        change.increment(PageRankMath.toCounter(Math.abs(rank - oldRank)));
        if (neighbours.isEmpty()) {
            dangling.increment(PageRankMath.toCounter(rank));
        }
    }
}
