package org.jvmreuse.workloads.pagerank;

import java.io.IOException;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Mapper;
import org.jvmreuse.workloads.timing.Timeline;

/** Sends each node to itself (to keep its links) and rank / outdegree to each of its targets. */
public class PageRankMapper extends Mapper<LongWritable, Text, Text, RankMessage> {
    private final Text key = new Text();
    private final RankMessage message = new RankMessage();
    private long nodes;

    @Override
    protected void setup(Context context) {
        Timeline.markCodeStart(context);
        nodes = PageRankJobs.nodes(context.getConfiguration());
    }

    @Override
    protected void map(LongWritable offset, Text text, Context context) throws IOException, InterruptedException {
        String line = text.toString();
        if (line.isEmpty()) {
            return;
        }
        GraphLine node = GraphLine.parse(line);
        double rank = node.hasRank() ? node.rank() : PageRankMath.initialRank(nodes);
        String[] targets = node.targets();
        key.set(node.node());
        message.setNode(rank, node.neighbours());
        context.write(key, message);
        if (targets.length == 0) {
            return; // a dangling node's rank reaches everyone through D
        }
        message.setContribution(rank / targets.length);
        for (String target : targets) {
            key.set(target);
            context.write(key, message);
        }
    }
}
