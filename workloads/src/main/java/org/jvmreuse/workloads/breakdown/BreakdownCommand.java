package org.jvmreuse.workloads.breakdown;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jvmreuse.workloads.cli.Options;
import org.jvmreuse.workloads.cli.UsageException;
import org.jvmreuse.workloads.timing.Csv;
import org.jvmreuse.workloads.timing.JobTiming;
import org.jvmreuse.workloads.timing.TimingCsv;

/**
 * breakdown: a run's per-job phases ({@link Phase}) from its timing files ({@code LABEL-jobs.csv},
 * {@code LABEL-tasks.csv}) and, optionally, the NodeManagers' logs for the AM containers' launches.
 * Prints the table and writes the CSV.
 */
public final class BreakdownCommand {
    public static final String USAGE = "breakdown --label L [--timings DIR (./timings)] [--nm-logs FILE...] "
            + "[--out CSV (DIR/L-breakdown.csv)]";

    private BreakdownCommand() {
    }

    public static int run(String[] args) throws Exception {
        Options options = Options.parse(args, Set.of("label", "timings", "out"), Set.of("nm-logs"));
        String label = options.get("label");
        Path timings = Paths.get(options.get("timings", "timings"));
        Path jobsFile = timings.resolve(label + "-jobs.csv");
        Path tasksFile = timings.resolve(label + "-tasks.csv");
        for (Path file : List.of(jobsFile, tasksFile)) {
            if (!Files.isRegularFile(file)) {
                throw new UsageException("no " + file + " (the driver writes LABEL-jobs.csv after a run on a YARN cluster)");
            }
        }
        List<Path> logs = new ArrayList<>();
        for (String name : options.getList("nm-logs")) {
            if (!Files.isRegularFile(Paths.get(name))) {
                throw new UsageException("--nm-logs: no file " + name);
            }
            logs.add(Paths.get(name));
        }
        List<JobTiming> jobs = TimingCsv.readJobs(jobsFile);
        Map<String, ContainerLaunch> launches = NodeManagerLog.read(logs);
        List<JobPath> paths = JobPaths.of(jobs, TimingCsv.readTasks(tasksFile), launches);
        System.out.print(BreakdownTable.text(paths));
        if (logs.isEmpty()) {
            System.out.println("(no --nm-logs: the AM containers' launches are unknown)");
        }
        Path out = Paths.get(options.get("out", timings.resolve(label + "-breakdown.csv").toString()));
        Csv.create(out, BreakdownTable.CSV_HEADER);
        for (JobPath path : paths) {
            Csv.append(out, BreakdownTable.CSV_HEADER, BreakdownTable.csvRow(path));
        }
        System.out.println("wrote " + out);
        return 0;
    }
}
