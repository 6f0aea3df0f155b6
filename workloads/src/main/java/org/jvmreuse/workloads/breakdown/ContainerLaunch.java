package org.jvmreuse.workloads.breakdown;

/** A container's launch as the NodeManager's PoolContainerExecutor logged it: when, and "pool" or "stock". */
public record ContainerLaunch(long ms, String path) {
    public static final String POOL = "pool";
    public static final String STOCK = "stock";
}
