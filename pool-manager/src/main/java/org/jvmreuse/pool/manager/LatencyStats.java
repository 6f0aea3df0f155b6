package org.jvmreuse.pool.manager;

import java.util.Arrays;

/** Launch latencies (request received to the program's main invoked) of the most recent runs. */
final class LatencyStats {
    private final long[] micros = new long[4096];
    private long count;

    void add(long nanos) {
        micros[(int) (count++ % micros.length)] = nanos / 1000;
    }

    String summary() {
        int n = (int) Math.min(count, micros.length);
        if (n == 0) {
            return "launch latency: no runs yet";
        }
        long[] sorted = Arrays.copyOf(micros, n);
        Arrays.sort(sorted);
        return String.format("launch latency (last %d runs): median %.2f ms, p95 %.2f ms, max %.2f ms", n,
                sorted[n / 2] / 1000.0, sorted[Math.min(n - 1, (int) (n * 0.95))] / 1000.0, sorted[n - 1] / 1000.0);
    }
}
