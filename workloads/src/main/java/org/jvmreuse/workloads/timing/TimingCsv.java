package org.jvmreuse.workloads.timing;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The timing files of a run: one row per task attempt, one row per iteration (as the client saw it),
 * one row per job (the job's path from the client, the ResourceManager and the job history).
 */
public final class TimingCsv {
    public static final String TASKS_HEADER =
            "label,iteration,job_id,task_id,attempt_id,type,job_submit_ms,launch_ms,code_start_ms,finish_ms";
    public static final String ITERATIONS_HEADER = "label,iteration,job_id,submit_ms,finish_ms,submit_to_finish_ms,change";
    public static final String JOBS_HEADER = "label,iteration,job_id,client_submit_ms,rm_submit_ms,am_main_start_ms,"
            + "am_container_id,am_node_id,am_attempts,uberized,job_start_ms,job_finish_ms,client_finish_ms";

    private TimingCsv() {
    }

    /** An unknown code start is an empty field. */
    public static String row(TaskTiming t) {
        return Csv.row(t.label(), t.iteration(), t.jobId(), t.taskId(), t.attemptId(), t.type(), t.jobSubmitMs(),
                t.launchMs(), t.codeStartMs() < 0 ? "" : t.codeStartMs(), t.finishMs());
    }

    /** A set-up job's change (NaN) is an empty field. */
    public static String row(IterationTiming t) {
        return Csv.row(t.label(), t.iteration(), t.jobId(), t.submitMs(), t.finishMs(), t.submitToFinishMs(),
                Double.isNaN(t.change()) ? "" : Double.toString(t.change()));
    }

    public static String row(JobTiming t) {
        return Csv.row(t.label(), t.iteration(), t.jobId(), t.clientSubmitMs(), t.rmSubmitMs(), t.amMainStartMs(),
                t.amContainerId(), t.amNodeId(), t.amAttempts(), t.uberized(), t.jobStartMs(), t.jobFinishMs(),
                t.clientFinishMs());
    }

    public static List<TaskTiming> readTasks(Path file) throws IOException {
        List<TaskTiming> tasks = new ArrayList<>();
        for (Map<String, String> r : Csv.read(file)) {
            String codeStart = Csv.column(r, "code_start_ms");
            tasks.add(new TaskTiming(Csv.column(r, "label"), Integer.parseInt(Csv.column(r, "iteration")),
                    Csv.column(r, "job_id"), Csv.column(r, "task_id"), Csv.column(r, "attempt_id"), Csv.column(r, "type"),
                    Long.parseLong(Csv.column(r, "job_submit_ms")), Long.parseLong(Csv.column(r, "launch_ms")),
                    codeStart.isEmpty() ? -1 : Long.parseLong(codeStart), Long.parseLong(Csv.column(r, "finish_ms"))));
        }
        return tasks;
    }

    public static List<IterationTiming> readIterations(Path file) throws IOException {
        List<IterationTiming> iterations = new ArrayList<>();
        for (Map<String, String> r : Csv.read(file)) {
            String change = Csv.column(r, "change");
            iterations.add(new IterationTiming(Csv.column(r, "label"), Integer.parseInt(Csv.column(r, "iteration")),
                    Csv.column(r, "job_id"), Long.parseLong(Csv.column(r, "submit_ms")),
                    Long.parseLong(Csv.column(r, "finish_ms")),
                    change.isEmpty() ? Double.NaN : Double.parseDouble(change)));
        }
        return iterations;
    }

    public static List<JobTiming> readJobs(Path file) throws IOException {
        List<JobTiming> jobs = new ArrayList<>();
        for (Map<String, String> r : Csv.read(file)) {
            jobs.add(new JobTiming(Csv.column(r, "label"), Integer.parseInt(Csv.column(r, "iteration")),
                    Csv.column(r, "job_id"), Long.parseLong(Csv.column(r, "client_submit_ms")),
                    Long.parseLong(Csv.column(r, "rm_submit_ms")), Long.parseLong(Csv.column(r, "am_main_start_ms")),
                    Csv.column(r, "am_container_id"), Csv.column(r, "am_node_id"),
                    Integer.parseInt(Csv.column(r, "am_attempts")), Boolean.parseBoolean(Csv.column(r, "uberized")),
                    Long.parseLong(Csv.column(r, "job_start_ms")), Long.parseLong(Csv.column(r, "job_finish_ms")),
                    Long.parseLong(Csv.column(r, "client_finish_ms"))));
        }
        return jobs;
    }
}
