package org.jvmreuse.pool.manager;

import java.util.Arrays;

/** Launch latencies (request received to the program's main invoked) of the most recent runs. */
final class LatencyStats {
    private final long[] micros = new long[4096];
    private long count;

    void add(long nanos) {
        micros[(int) (count++ % micros.length)] = nanos / 1000;
    }

    /** The same as {@link #summary} for {@code status --json}: runs counted, then median, p95, max in ms (absent before any run). */
    Json json() {
        int n = (int) Math.min(count, micros.length);
        Json json = new Json().put("runs", n);
        if (n > 0) {
            long[] sorted = sorted(n);
            json.put("median_ms", sorted[n / 2] / 1000.0).put("p95_ms", sorted[Math.min(n - 1, (int) (n * 0.95))] / 1000.0)
                    .put("max_ms", sorted[n - 1] / 1000.0);
        }
        return json;
    }

    private long[] sorted(int n) {
        long[] sorted = Arrays.copyOf(micros, n);
        Arrays.sort(sorted);
        return sorted;
    }

    String summary() {
        int n = (int) Math.min(count, micros.length);
        if (n == 0) {
            return "launch latency: no runs yet";
        }
        long[] sorted = sorted(n);
        return String.format("launch latency (last %d runs): median %.2f ms, p95 %.2f ms, max %.2f ms", n,
                sorted[n / 2] / 1000.0, sorted[Math.min(n - 1, (int) (n * 0.95))] / 1000.0, sorted[n - 1] / 1000.0);
    }
}
