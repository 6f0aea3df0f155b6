package org.jvmreuse.workloads.pagerank;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.jvmreuse.workloads.io.TextFiles;

/**
 * PageRank in one process with the rules of the MapReduce jobs ({@link PageRankMath}, including
 * the fixed-point counters that carry D and the L1 change). Results differ from the jobs' only by
 * the order of floating-point additions.
 */
public final class ReferencePageRank {
    private final String[] ids;
    private final int[][] targets;
    private final double damping;
    private double[] ranks;
    private double danglingMass;

    private ReferencePageRank(String[] ids, int[][] targets, double[] ranks, double danglingMass, double damping) {
        this.ids = ids;
        this.targets = targets;
        this.ranks = ranks;
        this.danglingMass = danglingMass;
        this.damping = damping;
    }

    /** Reads a graph file or directory in the format of {@link GraphLine}. */
    public static ReferencePageRank load(FileSystem fs, Path graph, double damping) throws IOException {
        List<GraphLine> lines = new ArrayList<>();
        TextFiles.read(fs, graph, line -> line.isEmpty() || lines.add(GraphLine.parse(line)));
        Map<String, Integer> index = new HashMap<>();
        String[] ids = new String[lines.size()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = lines.get(i).node();
            if (index.put(ids[i], i) != null) {
                throw new IOException("node " + ids[i] + " has more than one line");
            }
        }
        int n = ids.length;
        int[][] targets = new int[n][];
        double[] ranks = new double[n];
        long plainDangling = 0;
        long rankedDangling = 0;
        for (int i = 0; i < n; i++) {
            GraphLine line = lines.get(i);
            String[] names = line.targets();
            targets[i] = new int[names.length];
            for (int j = 0; j < names.length; j++) {
                Integer t = index.get(names[j]);
                if (t == null) {
                    throw new IOException(ids[i] + " links to " + names[j] + ", which has no line of its own");
                }
                targets[i][j] = t;
            }
            ranks[i] = line.hasRank() ? line.rank() : PageRankMath.initialRank(n);
            if (names.length == 0 && line.hasRank()) {
                rankedDangling += PageRankMath.toCounter(line.rank());
            } else if (names.length == 0) {
                plainDangling++;
            }
        }
        return new ReferencePageRank(ids, targets, ranks,
                PageRankMath.initialDanglingMass(plainDangling, rankedDangling, n), damping);
    }

    /** One iteration; returns the L1 change as the job's counter would report it. */
    public double step() {
        int n = ids.length;
        double[] inbound = new double[n];
        for (int u = 0; u < n; u++) {
            if (targets[u].length > 0) {
                double share = ranks[u] / targets[u].length;
                for (int t : targets[u]) {
                    inbound[t] += share;
                }
            }
        }
        double[] next = new double[n];
        long change = 0;
        long dangling = 0;
        for (int v = 0; v < n; v++) {
            next[v] = PageRankMath.newRank(inbound[v], damping, n, danglingMass);
            change += PageRankMath.toCounter(Math.abs(next[v] - ranks[v]));
            if (targets[v].length == 0) {
                dangling += PageRankMath.toCounter(next[v]);
            }
        }
        ranks = next;
        danglingMass = PageRankMath.fromCounter(dangling);
        return PageRankMath.fromCounter(change);
    }

    /** Runs up to {@code iterations} steps, stopping after one whose L1 change is below {@code threshold}; returns the steps run. */
    public int run(int iterations, double threshold) {
        for (int i = 1; i <= iterations; i++) {
            if (step() < threshold) {
                return i;
            }
        }
        return iterations;
    }

    public Map<String, Double> ranks() {
        Map<String, Double> result = new LinkedHashMap<>();
        for (int i = 0; i < ids.length; i++) {
            result.put(ids[i], ranks[i]);
        }
        return result;
    }
}
