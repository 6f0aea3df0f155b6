package org.jvmreuse.workloads.iterative;

import java.io.PrintStream;
import java.util.function.LongSupplier;

/**
 * Progress lines of an iterative run: "iteration i/N", time since the first submission and an
 * ETA from the mean time of the iterations finished so far (set-up jobs, iteration 0, do not count).
 */
public final class Progress {
    private static final long MIN_PRINT_INTERVAL_MS = 2000;

    private final String name;
    private final int iterations;
    private final PrintStream out;
    private final LongSupplier clock;
    private long runStart = -1;
    private long iterationStart;
    private boolean running;
    private long iterationTotalMs;
    private int finished;
    private long lastPrint;
    private String lastState = "";

    public Progress(String name, int iterations, PrintStream out, LongSupplier clock) {
        this.name = name;
        this.iterations = iterations;
        this.out = out;
        this.clock = clock;
    }

    public void submitted(int iteration) {
        long now = clock.getAsLong();
        if (runStart < 0) {
            runStart = now;
        }
        iterationStart = now;
        running = true;
        out.println(prefix(iteration) + " submitting" + times(now));
        lastPrint = now;
    }

    /** Prints the job's progress, at most every two seconds and only when it changed. */
    public void running(int iteration, float map, float reduce) {
        long now = clock.getAsLong();
        String state = String.format(" map %3.0f%% reduce %3.0f%%", map * 100, reduce * 100);
        if (now - lastPrint >= MIN_PRINT_INTERVAL_MS && !state.equals(lastState)) {
            out.println(prefix(iteration) + state + times(now));
            lastPrint = now;
            lastState = state;
        }
    }

    public void finished(int iteration, String detail) {
        long now = clock.getAsLong();
        running = false;
        if (iteration > 0) {
            iterationTotalMs += now - iterationStart;
            finished++;
        }
        out.println(prefix(iteration) + " done in " + seconds(now - iterationStart) + detail + times(now));
        lastPrint = now;
        lastState = "";
    }

    /** Estimated time left, or -1 before the first iteration finished. */
    long etaMs(long now) {
        if (finished == 0) {
            return -1;
        }
        long mean = iterationTotalMs / finished;
        long current = running ? now - iterationStart : 0;
        return Math.max(0, mean * (iterations - finished) - current);
    }

    private String prefix(int iteration) {
        return "[" + name + "] " + (iteration == 0 ? "set-up job" : "iteration " + iteration + "/" + iterations);
    }

    private String times(long now) {
        long eta = etaMs(now);
        return " | elapsed " + clockTime(now - runStart) + " | ETA " + (eta < 0 ? "?" : clockTime(eta));
    }

    static String clockTime(long ms) {
        long s = ms / 1000;
        return s >= 3600 ? String.format("%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
                : String.format("%d:%02d", s / 60, s % 60);
    }

    private static String seconds(long ms) {
        return String.format("%.1f s", ms / 1000.0);
    }
}
