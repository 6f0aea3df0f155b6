package org.jvmreuse.workloads.generate;

import java.util.Arrays;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Random;

/**
 * A web-like directed graph of nodes 0..N-1 as plain adjacency lines ({@code node TAB t1,t2,...}),
 * the same for the same settings on every JVM (java.util.Random and StrictMath only):
 * <ul>
 * <li>a node is dangling (no out-links) with probability {@code danglingFraction};</li>
 * <li>other out-degrees follow a Pareto law (exponent 2) with mean a little under {@code meanDegree} (rounded down),
 *     capped at min(1000, (N-1)/2);</li>
 * <li>targets are distinct, never the node itself, drawn from a Zipf law (exponent 1) over a
 *     seeded random order of the nodes, so in-degrees follow a power law too.</li>
 * </ul>
 */
public final class GraphGenerator implements Iterator<String> {
    private static final int MAX_DEGREE = 1000;

    private final int nodes;
    private final double meanDegree;
    private final double danglingFraction;
    private final Random random;
    private final int[] byPopularity;
    private final double[] cumulative;
    private final int[] chosen;
    private final int[] targets;
    private int next;

    public GraphGenerator(int nodes, double meanDegree, double danglingFraction, long seed) {
        if (nodes < 1 || meanDegree < 1 || danglingFraction < 0 || danglingFraction > 1) {
            throw new IllegalArgumentException("need nodes >= 1, mean degree >= 1, dangling fraction in [0, 1]");
        }
        this.nodes = nodes;
        this.meanDegree = meanDegree;
        this.danglingFraction = danglingFraction;
        random = new Random(seed);
        byPopularity = shuffledNodes(nodes, random);
        cumulative = zipfCumulative(nodes);
        chosen = new int[nodes];
        Arrays.fill(chosen, -1);
        targets = new int[Math.max(1, Math.min(MAX_DEGREE, (nodes - 1) / 2))];
    }

    @Override
    public boolean hasNext() {
        return next < nodes;
    }

    @Override
    public String next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        int node = next++;
        int degree = degree();
        drawTargets(node, degree);
        StringBuilder line = new StringBuilder().append(node).append('\t');
        for (int i = 0; i < degree; i++) {
            line.append(i == 0 ? "" : ",").append(targets[i]);
        }
        return line.toString();
    }

    private int degree() {
        if (nodes == 1 || random.nextDouble() < danglingFraction) {
            return 0;
        }
        // Pareto(alpha = 2, minimum m/2) has mean m; 1 - U lies in (0, 1].
        double x = meanDegree / 2 / StrictMath.sqrt(1 - random.nextDouble());
        return (int) Math.max(1, Math.min(targets.length, Math.floor(x)));
    }

    /** Fills targets[0..degree) with distinct nodes other than {@code node}, Zipf by popularity. */
    private void drawTargets(int node, int degree) {
        chosen[node] = node;
        for (int i = 0; i < degree; ) {
            int index = Arrays.binarySearch(cumulative, random.nextDouble());
            int target = byPopularity[Math.min(nodes - 1, index >= 0 ? index : -index - 1)];
            if (chosen[target] != node) {
                chosen[target] = node;
                targets[i++] = target;
            }
        }
    }

    private static int[] shuffledNodes(int n, Random random) {
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int swap = order[i];
            order[i] = order[j];
            order[j] = swap;
        }
        return order;
    }

    /** cumulative[r] = P(popularity rank <= r), with P(r) proportional to 1 / (r + 1). */
    private static double[] zipfCumulative(int n) {
        double[] cumulative = new double[n];
        double sum = 0;
        for (int r = 0; r < n; r++) {
            sum += 1.0 / (r + 1);
            cumulative[r] = sum;
        }
        for (int r = 0; r < n; r++) {
            cumulative[r] /= sum;
        }
        return cumulative;
    }
}
