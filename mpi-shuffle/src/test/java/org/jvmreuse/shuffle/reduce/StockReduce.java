package org.jvmreuse.shuffle.reduce;

import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.MapTaskCompletionEventsUpdate;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapred.ReduceTask;
import org.apache.hadoop.mapred.ShuffleConsumerPlugin;
import org.apache.hadoop.mapred.TaskAttemptID;
import org.apache.hadoop.mapred.TaskCompletionEvent;
import org.apache.hadoop.mapred.TaskUmbilicalProtocol;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.security.token.JobTokenSecretManager;
import org.apache.hadoop.mapreduce.task.reduce.Shuffle;
import org.apache.hadoop.util.ReflectionUtils;
import org.jvmreuse.hadoop.warmup.ShuffleContexts;

/**
 * A reducer's shuffle as a stock YARN container runs it with the MPI shuffle configured, outside
 * any pool slot (no run hook attached a link): the plug-in class named in the job's configuration,
 * made by {@code ReflectionUtils} and then initialised and run, as {@code ReduceTask.run} does,
 * against an umbilical that reports no map. So nothing is fetched, but all of the plug-in's own
 * code for such a reducer runs: its settings, Hadoop's scheduler and merge manager, the event
 * fetcher and the fetcher threads (with no MPI copier: HTTP only), the final merge and the
 * counters. {@link StockReducerTest} runs it in a class loader that has no org.jvmreuse.boot; only
 * JDK types go in and out.
 */
public final class StockReduce {
    static final String REDUCE = "attempt_1700000000000_0042_r_000000_0";

    private StockReduce() {
    }

    /** Runs the shuffle with {@code localDir} as the task's local directory: {plug-in class, records merged, maps shuffled}. */
    public static List<Object> run(String localDir) throws Exception {
        JobConf conf = new JobConf();
        conf.setUser(System.getProperty("user.name"));
        conf.setNumMapTasks(0);
        conf.setNumReduceTasks(1);
        conf.setMapOutputKeyClass(Text.class);
        conf.setMapOutputValueClass(Text.class);
        conf.set(MRConfig.LOCAL_DIR, localDir);
        conf.set(MRConfig.SHUFFLE_CONSUMER_PLUGIN, "org.jvmreuse.shuffle.reduce.MpiShuffle");
        @SuppressWarnings("rawtypes")
        Class<? extends ShuffleConsumerPlugin> type = conf.getClass(MRConfig.SHUFFLE_CONSUMER_PLUGIN, Shuffle.class,
                ShuffleConsumerPlugin.class);
        @SuppressWarnings("unchecked")
        ShuffleConsumerPlugin<Text, Text> plugin = ReflectionUtils.newInstance(type, conf);

        TaskAttemptID reduceId = TaskAttemptID.forName(REDUCE);
        ReduceTask task = new ReduceTask("job.xml", reduceId, 0, 0, 1);
        task.setShuffleSecret(JobTokenSecretManager.createSecretKey("stock".getBytes(StandardCharsets.US_ASCII)));
        Counters counters = new Counters();
        ShuffleConsumerPlugin.Context<Text, Text> context = ShuffleContexts.of(task, conf, noMaps(), counters);
        long records = 0;
        try {
            plugin.init(context);
            RawKeyValueIterator merged = plugin.run();
            try {
                while (merged.next()) {
                    records++;
                }
            } finally {
                merged.close();
            }
        } finally {
            plugin.close();
        }
        return List.of(plugin.getClass(), records, counters.findCounter(TaskCounter.SHUFFLED_MAPS).getValue());
    }

    /** The AM's side of the task, as a job with no maps answers: no map completion event, every status update taken. */
    private static TaskUmbilicalProtocol noMaps() {
        return (TaskUmbilicalProtocol) Proxy.newProxyInstance(TaskUmbilicalProtocol.class.getClassLoader(),
                new Class<?>[] {TaskUmbilicalProtocol.class}, (proxy, method, args) -> answer(proxy, method, args));
    }

    private static Object answer(Object proxy, Method method, Object[] args) {
        return switch (method.getName()) {
            case "getMapCompletionEvents" -> new MapTaskCompletionEventsUpdate(new TaskCompletionEvent[0], false);
            case "statusUpdate", "ping", "canCommit" -> true; // false from statusUpdate would end the JVM
            case "getProtocolVersion" -> TaskUmbilicalProtocol.versionID;
            case "hashCode" -> System.identityHashCode(proxy);
            case "equals" -> args[0] == proxy;
            case "toString" -> "umbilical of a job with no maps";
            default -> {
                if (method.getReturnType() == void.class) {
                    yield null;
                }
                throw new UnsupportedOperationException(method.getName());
            }
        };
    }
}
