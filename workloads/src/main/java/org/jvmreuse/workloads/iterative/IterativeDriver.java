package org.jvmreuse.workloads.iterative;

import java.io.IOException;
import java.nio.file.Paths;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.util.Tool;
import org.jvmreuse.workloads.breakdown.JobPath;
import org.jvmreuse.workloads.breakdown.JobPaths;
import org.jvmreuse.workloads.chart.TimelineChart;
import org.jvmreuse.workloads.cli.Options;
import org.jvmreuse.workloads.cli.UsageException;
import org.jvmreuse.workloads.timing.IterationTiming;
import org.jvmreuse.workloads.timing.JobHistory;
import org.jvmreuse.workloads.timing.JobTiming;
import org.jvmreuse.workloads.timing.ResultsCsv;
import org.jvmreuse.workloads.timing.RunResult;
import org.jvmreuse.workloads.timing.StartupTime;
import org.jvmreuse.workloads.timing.TaskReports;
import org.jvmreuse.workloads.timing.TaskTiming;
import org.jvmreuse.workloads.timing.TimingRecorder;

/**
 * An iterative workload: one MapReduce job per iteration on whatever cluster the Configuration
 * names, until the iteration limit or convergence. Prints progress, records per-task and
 * per-iteration timings (CSV) and, after the run, per-job times from the job history (CSV), draws the
 * run's timeline and can append the run to a results file.
 * Options common to all workloads: --input, --output, --iterations, --reducers, --label,
 * --timings (local directory), --results (local CSV) with --mode.
 */
public abstract class IterativeDriver extends Configured implements Tool {
    private static final long HISTORY_WAIT_MS = 60_000;
    private static final Set<String> COMMON =
            Set.of("input", "output", "iterations", "reducers", "label", "timings", "results", "mode");

    private String label;
    private int reducers;
    private TimingRecorder recorder;
    private Progress progress;

    /** What one iteration left behind: how much the model changed and whether that is small enough. */
    public record Step(double change, boolean converged) {
    }

    /** The subcommand, default label and job name prefix. */
    protected abstract String workload();

    /** The name of the change measure in progress lines, e.g. "L1 change". */
    protected abstract String changeName();

    /** Options besides the common ones. */
    protected abstract Set<String> workloadOptions();

    /** Reads the workload's options and prepares iteration 1 (set-up jobs go through {@link #runSetupJob}). */
    protected abstract void start(Options options, FileSystem fs, Path input, Path output) throws Exception;

    protected abstract Job iterationJob(int iteration) throws IOException;

    /** Reads the iteration's result once its job succeeded. */
    protected abstract Step afterIteration(int iteration, Job job) throws IOException;

    /** The directory or file that holds the run's result after {@code iteration}. */
    protected abstract Path result(int iteration);

    @Override
    public final int run(String[] args) throws Exception {
        Set<String> known = new HashSet<>(COMMON);
        known.addAll(workloadOptions());
        Options options = Options.parse(args, known);
        Path input = new Path(options.get("input"));
        Path output = new Path(options.get("output"));
        int iterations = options.getAtLeast("iterations", 1);
        reducers = options.getAtLeast("reducers", 1, 1);
        label = options.get("label", workload());
        if (!label.matches("[A-Za-z0-9._-]+")) {
            throw new UsageException("--label: letters, digits, '.', '_' and '-' only (it names files and CSV rows)");
        }
        String mode = options.get("mode", null);
        if (options.has("results") && (mode == null || !mode.matches("[A-Za-z0-9._-]+"))) {
            throw new UsageException("--results needs --mode, a word such as stock or pool");
        }
        FileSystem fs = output.getFileSystem(getConf());
        if (!input.getFileSystem(getConf()).exists(input)) {
            throw new UsageException("no input " + input);
        }
        if (fs.exists(output)) {
            throw new UsageException("output " + output + " exists");
        }
        java.nio.file.Path timings = Paths.get(options.get("timings", "timings"));
        recorder = new TimingRecorder(timings, label);
        progress = new Progress(label, iterations, System.out, System::currentTimeMillis);
        start(options, fs, input, output);
        int done = 0;
        for (int i = 1; i <= iterations; i++) {
            Job job = iterationJob(i);
            IterationTiming timing = runJob(i, job);
            Step step = afterIteration(i, job);
            recorder.iteration(timing.withChange(step.change()));
            progress.finished(i, ", " + changeName() + " " + step.change());
            done = i;
            if (step.converged()) {
                System.out.println("[" + label + "] converged after iteration " + i);
                break;
            }
        }
        finish(done, mode, options.get("results", null), timings);
        return 0;
    }

    /** A job of this workload with the settings every job of the run shares. */
    protected final Job newJob(String name) throws IOException {
        Job job = Job.getInstance(getConf(), workload() + " " + name);
        job.setJarByClass(getClass());
        job.setNumReduceTasks(reducers);
        // One attempt per task keeps the timings readable (a report describes its successful attempt).
        job.getConfiguration().setBoolean("mapreduce.map.speculative", false);
        job.getConfiguration().setBoolean("mapreduce.reduce.speculative", false);
        return job;
    }

    /** Runs a job that prepares the iterations; it is recorded as iteration 0. */
    protected final Job runSetupJob(Job job) throws Exception {
        IterationTiming timing = runJob(0, job);
        recorder.iteration(timing);
        progress.finished(0, "");
        return job;
    }

    private IterationTiming runJob(int iteration, Job job) throws Exception {
        long submit = System.currentTimeMillis();
        progress.submitted(iteration);
        job.submit();
        JobMonitor.await(job, progress, iteration);
        long finish = System.currentTimeMillis();
        if (!job.isSuccessful()) {
            throw new IOException("job " + job.getJobID() + " (iteration " + iteration + ") failed: "
                    + job.getStatus().getFailureInfo());
        }
        recorder.tasks(TaskReports.fetch(job, label, iteration, submit));
        return new IterationTiming(label, iteration, job.getJobID().toString(), submit, finish, Double.NaN);
    }

    private void finish(int iterations, String mode, String results, java.nio.file.Path timings)
            throws IOException, InterruptedException {
        List<IterationTiming> counted = recorder.iterations().stream().filter(t -> t.iteration() > 0).toList();
        List<TaskTiming> tasks = recorder.tasks().stream().filter(t -> t.iteration() > 0).toList();
        long total = counted.get(counted.size() - 1).finishMs() - counted.get(0).submitMs();
        long startup = StartupTime.union(tasks);
        System.out.printf("[%s] %d iterations in %.1f s (task start-up %.1f s of it); result %s%n", label, iterations,
                total / 1000.0, startup / 1000.0, result(iterations));
        System.out.println("[" + label + "] timings: " + recorder.tasksFile() + ", " + recorder.iterationsFile());
        if (results != null) {
            ResultsCsv.append(Paths.get(results), new RunResult(workload(), iterations, mode, total, startup));
        }
        List<JobPath> jobs = JobPaths.of(jobHistory(), recorder.tasks(), Map.of());
        if (recorder.tasks().isEmpty() && jobs.isEmpty()) {
            System.out.println("[" + label + "] no task reports and no job history (LocalJobRunner?): no timeline picture");
            return;
        }
        java.nio.file.Path png = timings.resolve(label + "-timeline.png");
        try {
            TimelineChart.write(recorder.tasks(), jobs, label + ": " + iterations + " iterations", png);
            System.out.println("[" + label + "] timeline: " + png);
        } catch (IOException | RuntimeException | InternalError | LinkageError e) {
            // A node without fonts or AWT libraries must not fail a run that has already succeeded.
            System.err.println("warning: no timeline picture: " + e);
        }
    }

    /**
     * The jobs' times from the ResourceManager and the JobHistoryServer, asked after the run (so that
     * nothing is added between iterations) and written to the jobs file; none on the LocalJobRunner.
     */
    private List<JobTiming> jobHistory() throws InterruptedException {
        String framework = new JobConf(getConf()).get(MRConfig.FRAMEWORK_NAME, MRConfig.LOCAL_FRAMEWORK_NAME);
        if (!MRConfig.YARN_FRAMEWORK_NAME.equals(framework)) {
            return List.of();
        }
        try {
            List<JobTiming> jobs = JobHistory.of(getConf()).fetch(recorder.iterations(), HISTORY_WAIT_MS);
            recorder.jobs(jobs);
            System.out.println("[" + label + "] per-job times: " + recorder.jobsFile());
            return jobs;
        } catch (IOException e) {
            System.err.println("warning: no per-job times (" + recorder.jobsFile() + "): " + e);
            return List.of();
        }
    }
}
