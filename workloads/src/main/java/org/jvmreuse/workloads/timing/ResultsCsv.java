package org.jvmreuse.workloads.timing;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The results file the comparison chart is drawn from: one row per run, appended. */
public final class ResultsCsv {
    public static final String HEADER = "workload,iterations,mode,total_ms,startup_ms";

    private ResultsCsv() {
    }

    public static void append(Path file, RunResult r) throws IOException {
        Csv.append(file, HEADER, Csv.row(r.workload(), r.iterations(), r.mode(), r.totalMs(), r.startupMs()));
    }

    /** An empty startup_ms (not measured) reads as 0. */
    public static List<RunResult> read(Path file) throws IOException {
        List<RunResult> results = new ArrayList<>();
        for (Map<String, String> r : Csv.read(file)) {
            String startup = Csv.column(r, "startup_ms");
            results.add(new RunResult(Csv.column(r, "workload"), Integer.parseInt(Csv.column(r, "iterations")),
                    Csv.column(r, "mode"), Long.parseLong(Csv.column(r, "total_ms")),
                    startup.isEmpty() ? 0 : Long.parseLong(startup)));
        }
        return results;
    }
}
