package org.jvmreuse.hadoop.task.job;

import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.Merger;
import org.apache.hadoop.mapred.Task;
import org.apache.hadoop.mapreduce.counters.Limits;
import org.apache.hadoop.util.ExitUtil;

/** Prints statics a task sets (and what they start as); sets them if {@code args[0]} is "set". */
public final class TaskStatics {
    public static void main(String[] args) throws Exception {
        System.out.println("counterLimit=" + Counters.MAX_COUNTER_LIMIT + " of " + Limits.COUNTERS_MAX);
        System.out.println("mergedOutputPrefix=" + Task.MERGED_OUTPUT_PREFIX);
        System.out.println("systemExitDisabled=" + Statics.get(ExitUtil.class, "systemExitDisabled"));
        System.out.println("includeFinalMerge=" + Statics.get(Merger.class, "includeFinalMerge"));
        if (args.length > 0 && args[0].equals("set")) {
            Counters.MAX_COUNTER_LIMIT = 5;
            Task.MERGED_OUTPUT_PREFIX = ".job";
            ExitUtil.disableSystemExit();
            Statics.call(Merger.class, "considerFinalMergeForProgress", new Class<?>[0]);
        }
    }
}
