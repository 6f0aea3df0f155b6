package org.jvmreuse.workloads.timing;

import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;

/**
 * The moment a task's user code starts, kept as a per-task counter so that the client can read it
 * with the task's report after the job: everything between the attempt's launch and this moment is
 * the task's start-up (container localisation, JVM start, Hadoop's task set-up).
 */
public final class Timeline {
    public static final String GROUP = "org.jvmreuse.workloads.Timeline";
    public static final String CODE_START_MS = "CODE_START_MS";

    private Timeline() {
    }

    /**
     * Called from Mapper/Reducer setup(). Only the first call of a task counts: a combiner runs
     * setup() again inside the map task, later.
     */
    public static void markCodeStart(TaskAttemptContext context) {
        Counter counter = context.getCounter(GROUP, CODE_START_MS);
        if (counter.getValue() == 0) {
            counter.setValue(System.currentTimeMillis());
        }
    }
}
