package org.jvmreuse.workloads.pagerank;

/**
 * One node of a graph file. Fields are separated by tabs:
 * <pre>
 *   node                             plain, no out-links (dangling)
 *   node TAB n1,n2,...               plain: starts at rank 1/N; an empty list means dangling
 *   node TAB rank TAB n1,n2,...      ranked (what every iteration writes); the list may be empty
 * </pre>
 * Node ids are any strings without tab or comma. A target listed twice counts as two links.
 */
public record GraphLine(String node, double rank, String neighbours) {
    private static final String[] NONE = new String[0];

    public static GraphLine parse(String line) {
        String[] fields = line.split("\t", -1);
        if (fields[0].isEmpty() || fields.length > 3) {
            throw new IllegalArgumentException("not a graph line (node[TAB rank]TAB neighbours): " + line);
        }
        return switch (fields.length) {
            case 1 -> new GraphLine(fields[0], Double.NaN, "");
            case 2 -> new GraphLine(fields[0], Double.NaN, fields[1]);
            default -> new GraphLine(fields[0], parseRank(fields[1], line), fields[2]);
        };
    }

    public boolean hasRank() {
        return !Double.isNaN(rank);
    }

    public String[] targets() {
        if (neighbours.isEmpty()) {
            return NONE;
        }
        String[] targets = neighbours.split(",", -1);
        for (String t : targets) {
            if (t.isEmpty()) {
                throw new IllegalArgumentException("empty neighbour in the list of " + node + ": " + neighbours);
            }
        }
        return targets;
    }

    /** The rank and neighbour fields of a ranked line (exact: Double.toString reads back to the same double). */
    public static String rankedValue(double rank, String neighbours) {
        return rank + "\t" + neighbours;
    }

    private static double parseRank(String field, String line) {
        try {
            return Double.parseDouble(field);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("rank is not a number: " + line);
        }
    }
}
