package org.jvmreuse.workloads.breakdown;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.jvmreuse.workloads.timing.JobTiming;
import org.jvmreuse.workloads.timing.TaskTiming;

/**
 * A run's jobs as {@link JobPath}s: the jobs file's moments, the tasks file's first launch, first
 * user code start and last finish per job, and the AM container's launch from the NodeManager logs.
 * <p>
 * Uber mode: the tasks run one after another inside the AM and no task container is allocated, so
 * the first task allocation is 0 (its mark is the job's start) and the job's set-up is counted in
 * the task launches. Hadoop 2.2 records an uber task attempt's launch when the AM starts running it
 * (in turn), but its finish only when the AM cleans up its (non-existent) container, which it does
 * for all of them after the last task: the last finish is still the end of the task work.
 */
public final class JobPaths {
    private JobPaths() {
    }

    /** {@code launches}: container launches by id (empty without NodeManager logs). */
    public static List<JobPath> of(List<JobTiming> jobs, List<TaskTiming> tasks, Map<String, ContainerLaunch> launches) {
        Map<String, List<TaskTiming>> byJob = tasks.stream().collect(Collectors.groupingBy(TaskTiming::jobId));
        List<JobTiming> ordered = new ArrayList<>(jobs);
        ordered.sort(Comparator.comparingLong(JobTiming::clientSubmitMs));
        List<JobPath> paths = new ArrayList<>();
        Long previousFinish = null;
        for (JobTiming job : ordered) {
            ContainerLaunch am = launches.get(job.amContainerId());
            List<TaskTiming> own = byJob.getOrDefault(job.jobId(), List.of());
            Long firstLaunch = job.uberized() ? Long.valueOf(job.jobStartMs())
                    : min(own.stream().map(TaskTiming::launchMs).toList());
            Long firstCode = min(own.stream().filter(TaskTiming::hasCodeStart).map(TaskTiming::codeStartMs).toList());
            Long lastFinish = own.isEmpty() ? null : Collections.max(own.stream().map(TaskTiming::finishMs).toList());
            List<Long> marks = Collections.unmodifiableList(Arrays.asList(previousFinish, job.clientSubmitMs(),
                    job.rmSubmitMs(), am != null ? am.ms() : job.amMainStartMs(), job.jobStartMs(), firstLaunch,
                    firstCode, lastFinish, job.jobFinishMs(), job.clientFinishMs()));
            paths.add(new JobPath(job.label(), job.iteration(), job.jobId(), job.uberized(), am == null ? "" : am.path(),
                    am != null, job.amMainStartMs(), marks));
            previousFinish = job.clientFinishMs();
        }
        return paths;
    }

    private static Long min(List<Long> values) {
        return values.isEmpty() ? null : Collections.min(values);
    }
}
