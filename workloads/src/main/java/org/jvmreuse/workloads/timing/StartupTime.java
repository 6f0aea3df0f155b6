package org.jvmreuse.workloads.timing;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Wall-clock time during which at least one task was starting up (the union of the tasks'
 * launch-to-code-start intervals). Unlike a sum over tasks it never exceeds the run's length,
 * so it can be drawn as a share of the total time.
 */
public final class StartupTime {
    private StartupTime() {
    }

    public static long union(List<TaskTiming> tasks) {
        List<long[]> intervals = new ArrayList<>();
        for (TaskTiming t : tasks) {
            if (t.startupMs() > 0) {
                intervals.add(new long[] {t.launchMs(), t.codeStartMs()});
            }
        }
        intervals.sort(Comparator.comparingLong(i -> i[0]));
        long total = 0;
        long start = Long.MIN_VALUE;
        long end = Long.MIN_VALUE;
        for (long[] i : intervals) {
            if (i[0] > end) {
                total += end - start;
                start = i[0];
                end = i[1];
            } else {
                end = Math.max(end, i[1]);
            }
        }
        return total + (end - start);
    }
}
