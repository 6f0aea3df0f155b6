package org.jvmreuse.hadoop.task;

import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.Task;
import org.apache.hadoop.mapreduce.counters.Limits;
import org.apache.hadoop.security.ssl.SSLFactory;

/**
 * Statics of the task process itself (YarnChild, Task, MapTask's merger, the reduce side's
 * shuffle, counters) and of helpers it uses (ExitUtil, ReadaheadPool, LocalJobRunner): back to
 * their initial values.
 */
final class MapReduceStatics {
    private MapReduceStatics() {
    }

    static void afterRun() {
        ifLoaded("org.apache.hadoop.mapred.YarnChild", c -> Fields.setStatic(c, "taskid", null));
        ifLoaded("org.apache.hadoop.mapred.TaskLog", c -> {
            synchronized (c) {
                Fields.setStatic(c, "localFS", null);
                Fields.setStatic(c, "prevOutLength", 0L);
                Fields.setStatic(c, "prevErrLength", 0L);
                Fields.setStatic(c, "prevLogLength", 0L);
                Fields.setStatic(c, "currentTaskid", null);
            }
        });
        ifLoaded("org.apache.hadoop.mapred.Task", c -> Task.MERGED_OUTPUT_PREFIX = ".merged");
        // MapTask sets it; a map task after a reduce task would count the final merge in its progress
        ifLoaded("org.apache.hadoop.mapred.Merger", c -> Fields.setStatic(c, "includeFinalMerge", false));
        ifLoaded("org.apache.hadoop.mapred.Counters", c -> {
            Counters.MAX_COUNTER_LIMIT = Limits.COUNTERS_MAX;
            Counters.MAX_GROUP_LIMIT = Limits.GROUPS_MAX;
        });
        ifLoaded("org.apache.hadoop.mapreduce.counters.FileSystemCounterGroup", c ->
                ((Map<?, ?>) Fields.getStatic(c, "schemes")).clear());
        ifLoaded("org.apache.hadoop.mapreduce.lib.aggregate.ValueAggregatorJobBase", c ->
                Fields.setStatic(c, "aggregatorDescriptorList", null));
        ifLoaded("org.apache.hadoop.mapreduce.task.reduce.Fetcher", c -> {
            synchronized (c) {
                Fields.setStatic(c, "nextId", 0);
                Fields.setStatic(c, "sslShuffle", false);
                SSLFactory ssl = (SSLFactory) Fields.getStatic(c, "sslFactory");
                if (ssl != null) {
                    ssl.destroy();
                    Fields.setStatic(c, "sslFactory", null);
                }
            }
        });
        ifLoaded("org.apache.hadoop.mapreduce.task.reduce.ShuffleSchedulerImpl", c ->
                Fields.setStatic(c, "shuffleStart", ThreadLocal.withInitial(() -> 0L)));
        ifLoaded("org.apache.hadoop.mapreduce.task.reduce.MapOutput", c ->
                ((AtomicInteger) Fields.getStatic(c, "ID")).set(0));
        // a task may run a job in local mode; a new JVM's first local job is job_local<random>_0001
        ifLoaded("org.apache.hadoop.mapred.LocalJobRunner", c -> {
            synchronized (c) {
                Fields.setStatic(c, "jobid", 0);
            }
        });
        ifLoaded("org.apache.hadoop.util.ExitUtil", c -> {
            Fields.setStatic(c, "systemExitDisabled", false);
            Fields.setStatic(c, "systemHaltDisabled", false);
            Fields.setStatic(c, "firstExitException", null);
            Fields.setStatic(c, "firstHaltException", null);
        });
        // IFileInputStream's readahead pool (only with native IO): its workers were the run's
        ifLoaded("org.apache.hadoop.io.ReadaheadPool", c -> {
            synchronized (c) {
                Object pool = Fields.getStatic(c, "instance");
                if (pool != null) {
                    ((ExecutorService) Fields.get(pool, "pool")).shutdownNow();
                    Fields.setStatic(c, "instance", null);
                }
            }
        });
    }

    private static void ifLoaded(String name, Consumer<Class<?>> reset) {
        SharedClasses.loaded(name).ifPresent(reset);
    }
}
