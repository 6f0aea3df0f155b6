package org.jvmreuse.workloads.pagerank;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.Tool;
import org.jvmreuse.workloads.cli.Options;
import org.jvmreuse.workloads.cli.UsageException;
import org.jvmreuse.workloads.io.OutputLayout;
import org.jvmreuse.workloads.io.TextFiles;

/**
 * verify-pagerank: compares a run's last iteration with the in-memory reference run for as many
 * iterations. Exit status 0 when every node is within the tolerance (default 1e-9), else 1.
 */
public final class PageRankCheck extends Configured implements Tool {
    public static final String USAGE = "verify-pagerank --graph GRAPH --output DIR [--damping D] [--tolerance T]";

    @Override
    public int run(String[] args) throws Exception {
        Options options = Options.parse(args, Set.of("graph", "output", "damping", "tolerance"));
        Path graph = new Path(options.get("graph"));
        Path output = new Path(options.get("output"));
        double tolerance = options.getDouble("tolerance", 1e-9);
        FileSystem fs = output.getFileSystem(getConf());
        int iterations = OutputLayout.last(fs, output, OutputLayout.ITERATION);
        if (iterations == 0) {
            throw new UsageException("no " + OutputLayout.ITERATION + "NNN in " + output);
        }
        ReferencePageRank reference =
                ReferencePageRank.load(fs, graph, options.getDouble("damping", PageRankMath.DEFAULT_DAMPING));
        reference.run(iterations, 0);
        Map<String, Double> ranks = readRanks(fs, OutputLayout.iteration(output, iterations));
        double difference = maxDifference(reference.ranks(), ranks);
        double sum = ranks.values().stream().mapToDouble(Double::doubleValue).sum();
        System.out.printf("%d nodes after %d iterations: max |job - reference| = %.3g, sum of ranks = %.12f%n",
                ranks.size(), iterations, difference, sum);
        return difference <= tolerance ? 0 : 1;
    }

    /** Node to rank, from ranked lines. */
    public static Map<String, Double> readRanks(FileSystem fs, Path path) throws IOException {
        Map<String, Double> ranks = new HashMap<>();
        TextFiles.read(fs, path, line -> {
            if (!line.isEmpty()) {
                GraphLine node = GraphLine.parse(line);
                ranks.put(node.node(), node.rank());
            }
            return true;
        });
        return ranks;
    }

    /** The largest difference of one node's rank; infinite when the node sets differ. */
    public static double maxDifference(Map<String, Double> expected, Map<String, Double> actual) {
        if (!expected.keySet().equals(actual.keySet())) {
            return Double.POSITIVE_INFINITY;
        }
        double max = 0;
        for (Map.Entry<String, Double> e : expected.entrySet()) {
            max = Math.max(max, Math.abs(e.getValue() - actual.get(e.getKey())));
        }
        return max;
    }
}
