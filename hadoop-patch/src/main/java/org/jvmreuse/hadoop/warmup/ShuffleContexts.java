package org.jvmreuse.hadoop.warmup;

import static org.jvmreuse.hadoop.names.HadoopNames.ShuffleContexts.CONTEXT;
import static org.jvmreuse.hadoop.names.HadoopNames.ShuffleContexts.TASK_STATUS;

import java.io.IOException;
import java.lang.reflect.Field;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalDirAllocator;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.InputSplit;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.MROutputFiles;
import org.apache.hadoop.mapred.ReduceTask;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapred.ShuffleConsumerPlugin;
import org.apache.hadoop.mapred.Task;
import org.apache.hadoop.mapred.TaskStatus;
import org.apache.hadoop.mapred.TaskUmbilicalProtocol;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.util.Progress;

/**
 * What {@code ReduceTask.run} hands a shuffle plug-in, made outside a task: the reduce task's
 * own status, a reporter whose counters count, and the task's counters, output files and local
 * directories from {@code conf}. For the warm-up's reducers and for tests that drive a plug-in.
 * Built through the constructor the Hadoop beside it has (HadoopNames: 3.x's takes one more).
 */
public final class ShuffleContexts {
    private ShuffleContexts() {
    }

    /**
     * The context of {@code task} (its shuffle secret set), with map events from {@code events}: a
     * reducer that fetches (on 3.x, one without local map files).
     */
    public static <K, V> ShuffleConsumerPlugin.Context<K, V> of(ReduceTask task, JobConf conf, TaskUmbilicalProtocol events,
                                                                 Counters counters) throws IOException {
        MROutputFiles files = new MROutputFiles();
        files.setConf(conf);
        Object[] arguments = {task.getTaskID(), conf, FileSystem.getLocal(conf), events,
            new LocalDirAllocator(MRConfig.LOCAL_DIR), new CountingReporter(counters), null, null, null,
            counters.findCounter(TaskCounter.SPILLED_RECORDS), counters.findCounter(TaskCounter.COMBINE_INPUT_RECORDS),
            counters.findCounter(TaskCounter.SHUFFLED_MAPS), counters.findCounter(TaskCounter.REDUCE_SHUFFLE_BYTES),
            counters.findCounter(TaskCounter.FAILED_SHUFFLE), counters.findCounter(TaskCounter.MERGED_MAP_OUTPUTS),
            status(task), new Progress(), new Progress(), task, files};
        List<String> parameters = CONTEXT.signatures().get(0);
        try {
            Class<?>[] types = new Class<?>[parameters.size()];
            for (int i = 0; i < types.length; i++) {
                types[i] = Class.forName(parameters.get(i), false, ShuffleConsumerPlugin.class.getClassLoader());
            }
            @SuppressWarnings("unchecked")
            ShuffleConsumerPlugin.Context<K, V> context = (ShuffleConsumerPlugin.Context<K, V>) ShuffleConsumerPlugin.Context.class
                    .getConstructor(types).newInstance(Arrays.copyOf(arguments, types.length)); // 3.x's last: no local map files
            return context;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("this Hadoop's shuffle context has no constructor " + CONTEXT + parameters, e);
        }
    }

    /** The task's own status, which the shuffle updates (Hadoop keeps it package-private). */
    private static TaskStatus status(Task task) {
        try {
            Field field = Task.class.getDeclaredField(TASK_STATUS.name());
            field.setAccessible(true);
            return (TaskStatus) field.get(task);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("Task.taskStatus of this Hadoop is not reachable", e);
        }
    }

    /** A task's reporter: counters that count, as the fetchers' error and MPI counters need. */
    private record CountingReporter(Counters counters) implements Reporter {
        @Override
        public void setStatus(String status) {
        }

        @Override
        public Counters.Counter getCounter(Enum<?> name) {
            return counters.findCounter(name);
        }

        @Override
        public Counters.Counter getCounter(String group, String name) {
            return counters.findCounter(group, name);
        }

        @Override
        public void incrCounter(Enum<?> key, long amount) {
            counters.incrCounter(key, amount);
        }

        @Override
        public void incrCounter(String group, String counter, long amount) {
            counters.incrCounter(group, counter, amount);
        }

        @Override
        public InputSplit getInputSplit() {
            throw new UnsupportedOperationException("no input split in a reducer");
        }

        @Override
        public float getProgress() {
            return 0;
        }

        @Override
        public void progress() {
        }
    }
}
