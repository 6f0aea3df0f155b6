package org.jvmreuse.workloads.breakdown;

/**
 * The consecutive phases of an iteration's job, each from one moment ({@link JobPath}'s marks) to the
 * next, so that submission to completion add up to the client's time for the job.
 */
public enum Phase {
    /** The previous job's completion seen by the client -> this job's submit call: the driver's own work. */
    BETWEEN("between", "between_ms"),
    /** The client's submit call -> the ResourceManager's submission time. */
    SUBMISSION("submit", "submission_ms"),
    /** -> the AM container's launch (NodeManager log), or the AM's main start without the log. */
    AM_ALLOCATION("AM alloc", "am_allocation_ms"),
    /** -> the job's start: the AM is up and registered (includes the JVM start on the stock path). */
    AM_START("AM start", "am_start_ms"),
    /** -> the first task container's launch (job set-up, container requests and allocation); 0 in uber mode. */
    TASK_ALLOCATION("task alloc", "task_allocation_ms"),
    /** -> the first task's user code start. */
    TASK_LAUNCHES("launches", "task_launches_ms"),
    /** -> the last task's finish (later waves' launches, shuffle and merge included). */
    TASK_WORK("work", "task_work_ms"),
    /** -> the job's finish (commit). */
    COMMIT("commit", "commit_ms"),
    /** -> the client saw the job complete. */
    COMPLETION("seen", "completion_ms");

    private final String heading;
    private final String column;

    Phase(String heading, String column) {
        this.heading = heading;
        this.column = column;
    }

    /** The short name in the printed table. */
    public String heading() {
        return heading;
    }

    /** The CSV column. */
    public String column() {
        return column;
    }
}
