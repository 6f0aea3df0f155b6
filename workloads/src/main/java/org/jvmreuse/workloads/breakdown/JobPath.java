package org.jvmreuse.workloads.breakdown;

import java.util.List;

/**
 * One iteration's job as a sequence of moments (ms since the epoch; null if unknown): the previous
 * job's completion seen by the client, the submit call, the RM's submission, the AM container's
 * launch, the job's start, the first task launch, the first user code start, the last task finish,
 * the job's finish, the client seeing the completion. {@link Phase} p runs from mark p to mark p + 1.
 * {@code amPath}: "pool" or "stock" from the NodeManager log, empty without it; {@code amLaunchLogged}
 * false: the AM container's launch is not in a NodeManager log and its mark is the AM's main start.
 */
public record JobPath(String label, int iteration, String jobId, boolean uberized, String amPath,
        boolean amLaunchLogged, long amMainStartMs, List<Long> marks) {
    public JobPath {
        if (marks.size() != Phase.values().length + 1) {
            throw new IllegalArgumentException("a job path has " + (Phase.values().length + 1) + " marks");
        }
    }

    public Long start(Phase phase) {
        return marks.get(phase.ordinal());
    }

    public Long end(Phase phase) {
        return marks.get(phase.ordinal() + 1);
    }

    /** The phase's length in ms, or null if one of its ends is unknown. */
    public Long ms(Phase phase) {
        Long start = start(phase);
        Long end = end(phase);
        return start == null || end == null ? null : end - start;
    }

    /** Submit call to completion seen by the client: the sum of the phases after {@link Phase#BETWEEN}. */
    public long clientMs() {
        return end(Phase.COMPLETION) - start(Phase.SUBMISSION);
    }

    /** The AM container's launch to the AM's main (JVM start and MRAppMaster's main), if the launch is logged. */
    public Long amLaunchToMainMs() {
        return amLaunchLogged ? amMainStartMs - end(Phase.AM_ALLOCATION) : null;
    }
}
