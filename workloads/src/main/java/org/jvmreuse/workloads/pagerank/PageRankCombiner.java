package org.jvmreuse.workloads.pagerank;

import java.io.IOException;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Reducer;

/** Adds up a map's contributions to one node; node messages pass unchanged. */
public class PageRankCombiner extends Reducer<Text, RankMessage, Text, RankMessage> {
    private final RankMessage sum = new RankMessage();

    @Override
    protected void reduce(Text node, Iterable<RankMessage> messages, Context context)
            throws IOException, InterruptedException {
        double mass = 0;
        boolean contributions = false;
        for (RankMessage m : messages) {
            if (m.isNode()) {
                context.write(node, m);
            } else {
                mass += m.value();
                contributions = true;
            }
        }
        if (contributions) {
            sum.setContribution(mass);
            context.write(node, sum);
        }
    }
}
