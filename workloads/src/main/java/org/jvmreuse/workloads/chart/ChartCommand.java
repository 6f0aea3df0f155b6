package org.jvmreuse.workloads.chart;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.jvmreuse.workloads.breakdown.JobPath;
import org.jvmreuse.workloads.breakdown.JobPaths;
import org.jvmreuse.workloads.breakdown.NodeManagerLog;
import org.jvmreuse.workloads.cli.Options;
import org.jvmreuse.workloads.cli.UsageException;
import org.jvmreuse.workloads.timing.JobTiming;
import org.jvmreuse.workloads.timing.ResultsCsv;
import org.jvmreuse.workloads.timing.RunResult;
import org.jvmreuse.workloads.timing.TaskTiming;
import org.jvmreuse.workloads.timing.TimingCsv;

/** chart timeline | chart compare: PNG pictures from the timing and results CSV files (and NodeManager logs). */
public final class ChartCommand {
    public static final String USAGE = "chart timeline --csv TASKS.csv --out PNG [--jobs JOBS.csv] [--nm-logs FILE...] [--title T]"
            + " [--label L] [--width W] [--height H]\n"
            + "       chart compare --csv RESULTS.csv --out PNG [--title T] [--workload W] [--width W] [--height H]";

    private ChartCommand() {
    }

    public static int run(String[] args) throws Exception {
        if (args.length == 0) {
            throw new UsageException("chart what: timeline or compare?");
        }
        String[] rest = Arrays.copyOfRange(args, 1, args.length);
        switch (args[0]) {
            case "timeline" -> timeline(Options.parse(rest, Set.of("csv", "out", "jobs", "title", "label", "width", "height"),
                    Set.of("nm-logs")));
            case "compare" -> compare(Options.parse(rest, Set.of("csv", "out", "title", "workload", "width", "height")));
            default -> throw new UsageException("unknown chart " + args[0]);
        }
        return 0;
    }

    /** The jobs file defaults to LABEL-jobs.csv next to LABEL-tasks.csv, if there is one. */
    private static void timeline(Options options) throws Exception {
        String label = options.get("label", null);
        Path csv = Paths.get(options.get("csv"));
        List<TaskTiming> tasks = TimingCsv.readTasks(csv).stream()
                .filter(t -> label == null || t.label().equals(label)).toList();
        Path sibling = csv.resolveSibling(csv.getFileName().toString().replaceFirst("-tasks\\.csv$", "-jobs.csv"));
        String jobsFile = options.get("jobs", !sibling.equals(csv) && Files.isRegularFile(sibling) ? sibling.toString() : null);
        List<JobPath> jobs = List.of();
        if (jobsFile != null) {
            List<JobTiming> rows = TimingCsv.readJobs(Paths.get(jobsFile)).stream()
                    .filter(j -> label == null || j.label().equals(label)).toList();
            List<Path> logs = options.getList("nm-logs").stream().map(Paths::get).toList();
            jobs = JobPaths.of(rows, tasks, NodeManagerLog.read(logs));
        }
        if (tasks.isEmpty() && jobs.isEmpty()) {
            throw new UsageException("no task or job rows" + (label == null ? "" : " with label " + label));
        }
        String title = options.get("title", (tasks.isEmpty() ? jobs.get(0).label() : tasks.get(0).label()) + " timeline");
        int width = options.getAtLeast("width", 200, 1200);
        int height = options.getAtLeast("height", 150, TimelineChart.defaultHeight(tasks.size() + jobs.size()));
        write(TimelineChart.render(tasks, jobs, title, width, height), options);
    }

    private static void compare(Options options) throws Exception {
        List<RunResult> all = ResultsCsv.read(Paths.get(options.get("csv")));
        if (all.isEmpty()) {
            throw new UsageException("no result rows");
        }
        String workload = options.get("workload", all.get(0).workload());
        List<RunResult> results = all.stream().filter(r -> r.workload().equals(workload)).toList();
        if (results.isEmpty()) {
            throw new UsageException("no results of workload " + workload);
        }
        String title = options.get("title", workload + ": total time by iterations");
        write(CompareChart.render(results, title, options.getAtLeast("width", 200, 900),
                options.getAtLeast("height", 150, 520)), options);
    }

    private static void write(java.awt.image.BufferedImage image, Options options) throws Exception {
        Path out = Paths.get(options.get("out"));
        Canvas.writePng(image, out);
        System.out.println("wrote " + out + " (" + image.getWidth() + " x " + image.getHeight() + ")");
    }
}
