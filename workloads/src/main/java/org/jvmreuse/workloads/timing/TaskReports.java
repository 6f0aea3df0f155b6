package org.jvmreuse.workloads.timing;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskReport;
import org.apache.hadoop.mapreduce.TaskType;

/**
 * Task timings of a finished job from the job client's task reports (the MRAppMaster while it
 * runs, then the JobHistoryServer). A report describes a task by its successful attempt: launch
 * time is the task's first attempt's container launch as the MRAppMaster saw it, finish time the
 * attempt's end, counters the successful attempt's. The LocalJobRunner reports no tasks.
 */
public final class TaskReports {
    private static final int TRIES = 30;
    private static final long RETRY_MS = 1000;

    private TaskReports() {
    }

    /**
     * Asks for the reports until they come (right after a job ends its reports move from the
     * MRAppMaster to the history server); gives up after about 30 s and returns what it has.
     */
    public static List<TaskTiming> fetch(Job job, String label, int iteration, long submitMs) throws InterruptedException {
        IOException last = null;
        for (int i = 0; i < TRIES; i++) {
            try {
                List<TaskTiming> tasks = new ArrayList<>();
                tasks.addAll(toTimings(job.getTaskReports(TaskType.MAP), TaskTiming.MAP, label, iteration,
                        job.getJobID().toString(), submitMs));
                tasks.addAll(toTimings(job.getTaskReports(TaskType.REDUCE), TaskTiming.REDUCE, label, iteration,
                        job.getJobID().toString(), submitMs));
                return tasks;
            } catch (IOException e) {
                last = e;
                Thread.sleep(RETRY_MS);
            }
        }
        System.err.println("warning: no task reports for " + job.getJobID() + ": " + last);
        return List.of();
    }

    public static List<TaskTiming> toTimings(TaskReport[] reports, String type, String label, int iteration, String jobId,
            long submitMs) {
        List<TaskTiming> tasks = new ArrayList<>();
        for (TaskReport r : reports) {
            // A report without a successful attempt holds an empty id, whose toString() fails.
            TaskAttemptID attempt = r.getSuccessfulTaskAttemptId();
            boolean succeeded = attempt != null && attempt.getTaskType() != null;
            Counters counters = r.getTaskCounters();
            long codeStart = counters == null ? 0 : counters.findCounter(Timeline.GROUP, Timeline.CODE_START_MS).getValue();
            tasks.add(new TaskTiming(label, iteration, jobId, r.getTaskID().toString(),
                    succeeded ? attempt.toString() : "", type, submitMs, r.getStartTime(),
                    codeStart > 0 ? codeStart : -1, r.getFinishTime()));
        }
        return tasks;
    }
}
