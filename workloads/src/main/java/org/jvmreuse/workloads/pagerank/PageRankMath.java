package org.jvmreuse.workloads.pagerank;

/**
 * The arithmetic the MapReduce jobs and the in-memory reference share, so that both follow the
 * same rules to the last bit that matters:
 * <pre>
 *   rank'(v) = (1 - d) / N + d * (sum over u -> v of rank(u) / outdegree(u) + D / N)
 * </pre>
 * where D is the rank held by dangling nodes (no out-links), spread evenly over all N nodes.
 * Masses travel between jobs as Hadoop counters, i.e. longs: fixed point with 50 fraction bits
 * (resolution 9e-16; sums up to 8192 fit), rounded per node.
 */
public final class PageRankMath {
    public static final double DEFAULT_DAMPING = 0.85;
    private static final int FRACTION_BITS = 50;

    private PageRankMath() {
    }

    public static long toCounter(double mass) {
        return Math.round(Math.scalb(mass, FRACTION_BITS));
    }

    public static double fromCounter(long counter) {
        return Math.scalb((double) counter, -FRACTION_BITS);
    }

    /** The rank of a node read from a plain adjacency line (no rank yet). */
    public static double initialRank(long nodes) {
        return 1.0 / nodes;
    }

    /** D for iteration 1: plain dangling lines hold 1/N each, ranked ones what their rank says. */
    public static double initialDanglingMass(long plainDanglingNodes, long rankedDanglingCounter, long nodes) {
        return fromCounter(rankedDanglingCounter) + plainDanglingNodes * initialRank(nodes);
    }

    public static double newRank(double inbound, double damping, long nodes, double danglingMass) {
        return (1 - damping) / nodes + damping * (inbound + danglingMass / nodes);
    }
}
