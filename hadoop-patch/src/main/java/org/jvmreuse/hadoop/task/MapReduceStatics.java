package org.jvmreuse.hadoop.task;

import static org.jvmreuse.hadoop.names.HadoopNames.MapReduceStatics.AGGREGATOR_DESCRIPTORS;
import static org.jvmreuse.hadoop.names.HadoopNames.MapReduceStatics.COUNTERS;
import static org.jvmreuse.hadoop.names.HadoopNames.MapReduceStatics.CURRENT_TASK;
import static org.jvmreuse.hadoop.names.HadoopNames.MapReduceStatics.EXIT_UTIL;
import static org.jvmreuse.hadoop.names.HadoopNames.MapReduceStatics.FETCHER;
import static org.jvmreuse.hadoop.names.HadoopNames.MapReduceStatics.FETCHER_NEXT_ID;
import static org.jvmreuse.hadoop.names.HadoopNames.MapReduceStatics.FIRST_EXIT;
import static org.jvmreuse.hadoop.names.HadoopNames.MapReduceStatics.FIRST_HALT;
import static org.jvmreuse.hadoop.names.HadoopNames.MapReduceStatics.INCLUDE_FINAL_MERGE;
import static org.jvmreuse.hadoop.names.HadoopNames.MapReduceStatics.LIMITS_INITED;
import static org.jvmreuse.hadoop.names.HadoopNames.MapReduceStatics.LOCAL_FS;
import static org.jvmreuse.hadoop.names.HadoopNames.MapReduceStatics.LOCAL_JOB_ID;
import static org.jvmreuse.hadoop.names.HadoopNames.MapReduceStatics.MAP_OUTPUT_ID;
import static org.jvmreuse.hadoop.names.HadoopNames.MapReduceStatics.PREV_ERR_LENGTH;
import static org.jvmreuse.hadoop.names.HadoopNames.MapReduceStatics.PREV_LOG_LENGTH;
import static org.jvmreuse.hadoop.names.HadoopNames.MapReduceStatics.PREV_OUT_LENGTH;
import static org.jvmreuse.hadoop.names.HadoopNames.MapReduceStatics.PROGRESS_LOG_THRESHOLDS;
import static org.jvmreuse.hadoop.names.HadoopNames.MapReduceStatics.READAHEAD_INSTANCE;
import static org.jvmreuse.hadoop.names.HadoopNames.MapReduceStatics.READAHEAD_POOL;
import static org.jvmreuse.hadoop.names.HadoopNames.MapReduceStatics.READAHEAD_WORKERS;
import static org.jvmreuse.hadoop.names.HadoopNames.MapReduceStatics.SCHEMES;
import static org.jvmreuse.hadoop.names.HadoopNames.MapReduceStatics.SHUFFLE_START;
import static org.jvmreuse.hadoop.names.HadoopNames.MapReduceStatics.SSL_FACTORY;
import static org.jvmreuse.hadoop.names.HadoopNames.MapReduceStatics.SSL_SHUFFLE;
import static org.jvmreuse.hadoop.names.HadoopNames.MapReduceStatics.SYSTEM_EXIT_DISABLED;
import static org.jvmreuse.hadoop.names.HadoopNames.MapReduceStatics.SYSTEM_HALT_DISABLED;
import static org.jvmreuse.hadoop.names.HadoopNames.MapReduceStatics.TASK;
import static org.jvmreuse.hadoop.names.HadoopNames.MapReduceStatics.TASK_LOG;
import static org.jvmreuse.hadoop.names.HadoopNames.MapReduceStatics.YARN_CHILD;
import static org.jvmreuse.hadoop.names.HadoopNames.MapReduceStatics.YARN_CHILD_TASK;

import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.Task;
import org.apache.hadoop.mapreduce.counters.Limits;
import org.apache.hadoop.security.ssl.SSLFactory;
import org.jvmreuse.hadoop.names.ClassName;

/**
 * Statics of the task process itself (YarnChild, Task, MapTask's merger, the reduce side's
 * shuffle, counters) and of helpers it uses (ExitUtil, ReadaheadPool, LocalJobRunner): back to
 * their initial values.
 */
final class MapReduceStatics {
    private MapReduceStatics() {
    }

    static void afterRun() {
        ifLoaded(YARN_CHILD, c -> Fields.setStatic(c, YARN_CHILD_TASK, null));
        ifLoaded(TASK_LOG, c -> {
            synchronized (c) {
                Fields.setStatic(c, LOCAL_FS, null);
                Fields.setStatic(c, PREV_OUT_LENGTH, 0L);
                Fields.setStatic(c, PREV_ERR_LENGTH, 0L);
                Fields.setStatic(c, PREV_LOG_LENGTH, 0L);
                Fields.setStatic(c, CURRENT_TASK, null);
            }
        });
        ifLoaded(TASK, c -> Task.MERGED_OUTPUT_PREFIX = ".merged");
        // MapTask sets it; a map task after a reduce task would count the final merge in its progress
        INCLUDE_FINAL_MERGE.ifPresent(merge -> ifLoaded(merge.owner(), c -> Fields.setStatic(c, merge, false)));
        COUNTERS.ifPresent(counters -> ifLoaded(counters, c -> {
            Counters.MAX_COUNTER_LIMIT = Limits.COUNTERS_MAX;
            Counters.MAX_GROUP_LIMIT = Limits.GROUPS_MAX;
        }));
        forgetCounterLimits();
        // 3.x: an MRAppMaster's progress-logging thresholds, which its first job set
        PROGRESS_LOG_THRESHOLDS.ifPresent(thresholds -> thresholds.forEach(threshold ->
                ifLoaded(threshold.owner(), c -> Fields.setStatic(c, threshold, null))));
        ifLoaded(SCHEMES.owner(), c -> ((Map<?, ?>) Fields.getStatic(c, SCHEMES)).clear());
        ifLoaded(AGGREGATOR_DESCRIPTORS.owner(), c -> Fields.setStatic(c, AGGREGATOR_DESCRIPTORS, null));
        ifLoaded(FETCHER, c -> {
            synchronized (c) {
                Fields.resetStatic(c, FETCHER_NEXT_ID, 0);
                Fields.setStatic(c, SSL_SHUFFLE, false);
                SSLFactory ssl = (SSLFactory) Fields.getStatic(c, SSL_FACTORY);
                if (ssl != null) {
                    ssl.destroy();
                    Fields.setStatic(c, SSL_FACTORY, null);
                }
            }
        });
        SHUFFLE_START.ifPresent(start -> ifLoaded(start.owner(),
                c -> Fields.setStatic(c, start, ThreadLocal.withInitial(() -> 0L))));
        ifLoaded(MAP_OUTPUT_ID.owner(), c -> ((AtomicInteger) Fields.getStatic(c, MAP_OUTPUT_ID)).set(0));
        // a task may run a job in local mode; a new JVM's first local job is job_local<random>_0001
        ifLoaded(LOCAL_JOB_ID.owner(), c -> {
            synchronized (c) {
                Fields.setStatic(c, LOCAL_JOB_ID, 0);
            }
        });
        ifLoaded(EXIT_UTIL, c -> {
            Fields.setStatic(c, SYSTEM_EXIT_DISABLED, false);
            Fields.setStatic(c, SYSTEM_HALT_DISABLED, false);
            Fields.resetStatic(c, FIRST_EXIT, null);
            Fields.resetStatic(c, FIRST_HALT, null);
        });
        // IFileInputStream's readahead pool (only with native IO): its workers were the run's
        ifLoaded(READAHEAD_POOL, c -> {
            synchronized (c) {
                Object pool = Fields.getStatic(c, READAHEAD_INSTANCE);
                if (pool != null) {
                    ((ExecutorService) Fields.get(pool, READAHEAD_WORKERS)).shutdownNow();
                    Fields.setStatic(c, READAHEAD_INSTANCE, null);
                }
            }
        });
    }

    /** 3.x: Limits reads the next configuration it is given (the next task's job's); also before each run. */
    static void forgetCounterLimits() {
        LIMITS_INITED.ifPresent(inited -> ifLoaded(inited.owner(), c -> {
            synchronized (c) {
                Fields.setStatic(c, inited, false);
            }
        }));
    }

    private static void ifLoaded(ClassName name, Consumer<Class<?>> reset) {
        SharedClasses.loaded(name).ifPresent(reset);
    }
}
