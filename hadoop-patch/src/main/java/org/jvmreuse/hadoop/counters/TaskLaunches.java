package org.jvmreuse.hadoop.counters;

/**
 * The counter group {@code org.jvmreuse.hadoop.counters.TaskLaunches}: how many of a job's tasks
 * ran in a pool slot and how many on the stock path (a JVM of their own). Every task counts 1 in
 * one of them ({@link TaskLaunchCountingEngine} adds it to the counters the task reports); the
 * display names are in TaskLaunches.properties, as for Hadoop's own groups.
 */
public enum TaskLaunches {
    POOLED_TASKS,
    STOCK_TASKS;

    /** Set by the slot's run hook for the length of a run: a JVM runs one task at a time. */
    private static volatile boolean inSlot;

    /** Called by the slot's run hook when a run starts ({@code true}) and when it ends. */
    public static void inSlot(boolean running) {
        inSlot = running;
    }

    /** The counter of the task running in this JVM now. */
    public static TaskLaunches current() {
        return inSlot ? POOLED_TASKS : STOCK_TASKS;
    }
}
