package org.jvmreuse.workloads.breakdown;

import java.util.ArrayList;
import java.util.List;
import org.jvmreuse.workloads.timing.Csv;

/** A run's breakdown as a printed table and as CSV (one row per job; an unknown phase is "-" / empty). */
public final class BreakdownTable {
    public static final String CSV_HEADER = csvHeader();
    private static final String NO_LOG_NOTE = "AM allocation and AM start split at the AM's main start (MRAppMaster"
            + " constructed), not at its container's launch";

    private BreakdownTable() {
    }

    private static String csvHeader() {
        List<String> columns = new ArrayList<>(List.of("label", "iteration", "job_id", "uberized", "am_path", "am_split"));
        for (Phase p : Phase.values()) {
            columns.add(p.column());
        }
        columns.addAll(List.of("client_ms", "am_launch_to_main_ms"));
        return String.join(",", columns);
    }

    public static String csvRow(JobPath path) {
        List<Object> values = new ArrayList<>(List.of(path.label(), path.iteration(), path.jobId(), path.uberized(),
                path.amPath(), path.amLaunchLogged() ? "nm-log" : "am-main"));
        for (Phase p : Phase.values()) {
            values.add(orEmpty(path.ms(p)));
        }
        values.add(path.clientMs());
        values.add(orEmpty(path.amLaunchToMainMs()));
        return Csv.row(values.toArray());
    }

    /** The table, ms per phase; says where AM allocation and AM start were split when a job's AM launch was not logged. */
    public static String text(List<JobPath> paths) {
        StringBuilder out = new StringBuilder();
        if (!paths.isEmpty()) {
            out.append("[").append(paths.get(0).label()).append("] per-job phases, ms (")
                    .append(Phase.SUBMISSION.heading()).append(" to ").append(Phase.COMPLETION.heading())
                    .append(" add up to the client's time; ").append(Phase.BETWEEN.heading())
                    .append(": the driver's own work before the submit call)\n");
        }
        out.append(String.format("%4s |", "iter"));
        for (Phase p : Phase.values()) {
            out.append(String.format(" %10s", p.heading()));
        }
        out.append(String.format(" | %8s | %-11s %10s%n", "client", "AM", "AM to main"));
        boolean unlogged = false;
        for (JobPath path : paths) {
            out.append(String.format("%3d%s |", path.iteration(), path.amLaunchLogged() ? " " : "*"));
            for (Phase p : Phase.values()) {
                out.append(String.format(" %10s", orDash(path.ms(p))));
            }
            String am = (path.amPath().isEmpty() ? "-" : path.amPath()) + (path.uberized() ? ", uber" : "");
            out.append(String.format(" | %8d | %-11s %10s%n", path.clientMs(), am, orDash(path.amLaunchToMainMs())));
            unlogged |= !path.amLaunchLogged();
        }
        if (unlogged) {
            out.append("* no NodeManager log line for the AM container: ").append(NO_LOG_NOTE).append('\n');
        }
        return out.toString();
    }

    private static Object orEmpty(Long value) {
        return value == null ? "" : value;
    }

    private static String orDash(Long value) {
        return value == null ? "-" : value.toString();
    }
}
