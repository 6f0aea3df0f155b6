package org.jvmreuse.workloads.timing;

/**
 * One task attempt of one iteration's job (client-side wall-clock milliseconds since the epoch).
 * {@code codeStartMs} is -1 when the task did not report it.
 */
public record TaskTiming(String label, int iteration, String jobId, String taskId, String attemptId, String type,
        long jobSubmitMs, long launchMs, long codeStartMs, long finishMs) {
    public static final String MAP = "MAP";
    public static final String REDUCE = "REDUCE";

    public boolean hasCodeStart() {
        return codeStartMs >= launchMs && codeStartMs <= finishMs;
    }

    /** Launch to user code, or 0 if unknown. */
    public long startupMs() {
        return hasCodeStart() ? codeStartMs - launchMs : 0;
    }
}
