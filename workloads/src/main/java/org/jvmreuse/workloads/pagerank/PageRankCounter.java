package org.jvmreuse.workloads.pagerank;

/** Job counters the driver reads after each PageRank job. Masses are scaled, see {@link PageRankMath}. */
public enum PageRankCounter {
    /** Nodes seen (count job: lines; iteration: nodes written). */
    NODES,
    /** Count job: dangling nodes given by plain lines (rank 1/N each). */
    DANGLING_NODES,
    /** Scaled rank held by dangling nodes (count job: ranked lines; iteration: new ranks). */
    DANGLING_MASS,
    /** Scaled sum over nodes of |new rank - old rank|. */
    L1_CHANGE,
    /** Nodes that are linked to but have no line of their own (the job's result is then invalid). */
    MISSING_NODES
}
