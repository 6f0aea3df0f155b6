package org.jvmreuse.workloads.timing;

/**
 * One run for the comparison chart: its total time (first iteration's submission to the last
 * iteration's completion) and how much of it was task start-up (see {@link StartupTime}).
 */
public record RunResult(String workload, int iterations, String mode, long totalMs, long startupMs) {
}
