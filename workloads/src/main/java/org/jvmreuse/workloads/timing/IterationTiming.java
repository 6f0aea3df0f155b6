package org.jvmreuse.workloads.timing;

/**
 * One iteration's job as the client saw it: submission to completion. {@code change} is the
 * workload's convergence measure after the iteration (NaN for a set-up job).
 */
public record IterationTiming(String label, int iteration, String jobId, long submitMs, long finishMs, double change) {
    public long submitToFinishMs() {
        return finishMs - submitMs;
    }

    public IterationTiming withChange(double value) {
        return new IterationTiming(label, iteration, jobId, submitMs, finishMs, value);
    }
}
