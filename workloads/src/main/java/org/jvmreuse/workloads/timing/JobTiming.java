package org.jvmreuse.workloads.timing;

/**
 * One job's path as the client, the ResourceManager and the job history saw it (milliseconds since
 * the epoch): the client's submit call, the RM's submission time, the MRAppMaster's construction
 * (its main), the job's start (the AM is up and registered with the RM) and finish (after commit),
 * and the moment the client saw the job complete. {@code amContainerId} and {@code amNodeId} are the
 * last AM attempt's ({@code amAttempts} attempts in all); {@code uberized}: the tasks ran inside the AM.
 */
public record JobTiming(String label, int iteration, String jobId, long clientSubmitMs, long rmSubmitMs,
        long amMainStartMs, String amContainerId, String amNodeId, int amAttempts, boolean uberized, long jobStartMs,
        long jobFinishMs, long clientFinishMs) {
}
