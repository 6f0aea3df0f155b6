package org.jvmreuse.workloads.timing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Writes a run's timing files as the run goes ({@code <label>-tasks.csv} and
 * {@code <label>-iterations.csv} in a local directory, rows appended after each job, so a run that
 * fails half-way keeps what it measured; {@code <label>-jobs.csv} once, after the run) and keeps the
 * rows for the run's summary.
 */
public final class TimingRecorder {
    private final Path tasksFile;
    private final Path iterationsFile;
    private final Path jobsFile;
    private final List<TaskTiming> tasks = new ArrayList<>();
    private final List<IterationTiming> iterations = new ArrayList<>();

    public TimingRecorder(Path directory, String label) throws IOException {
        tasksFile = directory.resolve(label + "-tasks.csv");
        iterationsFile = directory.resolve(label + "-iterations.csv");
        jobsFile = directory.resolve(label + "-jobs.csv");
        Csv.create(tasksFile, TimingCsv.TASKS_HEADER);
        Csv.create(iterationsFile, TimingCsv.ITERATIONS_HEADER);
        Files.deleteIfExists(jobsFile);
    }

    public void tasks(List<TaskTiming> rows) throws IOException {
        for (TaskTiming t : rows) {
            Csv.append(tasksFile, TimingCsv.TASKS_HEADER, TimingCsv.row(t));
        }
        tasks.addAll(rows);
    }

    public void iteration(IterationTiming row) throws IOException {
        Csv.append(iterationsFile, TimingCsv.ITERATIONS_HEADER, TimingCsv.row(row));
        iterations.add(row);
    }

    /** Writes the jobs file (after the run: its rows come from the job history). */
    public void jobs(List<JobTiming> rows) throws IOException {
        Csv.create(jobsFile, TimingCsv.JOBS_HEADER);
        for (JobTiming t : rows) {
            Csv.append(jobsFile, TimingCsv.JOBS_HEADER, TimingCsv.row(t));
        }
    }

    public List<TaskTiming> tasks() {
        return Collections.unmodifiableList(tasks);
    }

    public List<IterationTiming> iterations() {
        return Collections.unmodifiableList(iterations);
    }

    public Path tasksFile() {
        return tasksFile;
    }

    public Path iterationsFile() {
        return iterationsFile;
    }

    public Path jobsFile() {
        return jobsFile;
    }
}
