package org.jvmreuse.hadoop.warmup;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ServiceLoader;
import javax.crypto.SecretKey;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapred.ReduceTask;
import org.apache.hadoop.mapred.ShuffleConsumerPlugin;
import org.apache.hadoop.mapred.TaskAttemptID;
import org.apache.hadoop.mapred.TaskUmbilicalProtocol;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.security.token.JobTokenSecretManager;
import org.apache.hadoop.mapreduce.task.reduce.Shuffle;

/**
 * The reduce side of a shuffle, run in the warm-up so that a slot's first real reducer finds it
 * compiled: map outputs written as a NodeManager holds them ({@link WarmupMapOutputs}), served
 * over HTTP as the ShuffleHandler serves them ({@link MapOutputHttpServer}), fetched by Hadoop's
 * own shuffle plug-in (event fetcher, Fetcher threads, ShuffleSchedulerImpl, MergeManagerImpl,
 * with limits that make it shuffle to memory and to disk, merge in memory and on disk, and merge
 * at the end in several passes), then the same through the MPI shuffle's plug-in over an
 * in-JVM message loop if the MPI shuffle is on the class path (a {@link WarmupShuffle}). Each
 * reducer's merged output is read to the end and checked against what the maps wrote.
 */
public final class ShuffleWarmup {
    static final String REDUCE = "attempt_1700000000000_0001_r_000000_0";

    private ShuffleWarmup() {
    }

    /** What one reducer got: records and bytes out of the final merge, and its counters. */
    public record Result(String path, long records, long bytes, Counters counters, long millis) {
        public long counter(Enum<?> key) {
            return counters.findCounter(key).getValue();
        }

        @Override
        public String toString() {
            return String.format("%s: %d maps, %d records, %d bytes merged in %d ms", path, counter(TaskCounter.SHUFFLED_MAPS),
                    records, bytes, millis);
        }
    }

    /** Shuffles about {@code totalBytes} over HTTP, then over MPI if its plug-in is here; everything in {@code dir}. */
    public static java.util.List<Result> run(Path dir, long totalBytes) throws Exception {
        JobConf conf = conf(dir, totalBytes);
        Path localDir = dir.resolve("nm-local");
        WarmupMapOutputs outputs = new WarmupMapOutputs(localDir, totalBytes, conf);
        byte[] key = new byte[20];
        new SecureRandom().nextBytes(key);
        SecretKey secret = JobTokenSecretManager.createSecretKey(key);
        java.util.List<Result> results = new java.util.ArrayList<>();
        try (MapOutputHttpServer server = new MapOutputHttpServer(localDir, secret, conf)) {
            TaskUmbilicalProtocol events = new MapEvents(outputs.maps, server.address()).umbilical();
            results.add(reduce("http", new Shuffle<Text, Text>(), conf, events, secret, outputs));
            ShuffleConsumerPlugin<Text, Text> mpi = mpiPlugin(localDir, server.port());
            if (mpi != null) {
                Result result = reduce("mpi", mpi, conf, events, secret, outputs);
                long overMpi = result.counters.findCounter("org.jvmreuse.shuffle.MpiShuffle", "MPI_MAPS").getValue();
                if (overMpi != outputs.maps.size()) {
                    throw new IOException("the MPI shuffle warm-up copied " + overMpi + " of " + outputs.maps.size()
                            + " map outputs over MPI");
                }
                results.add(result);
            }
        }
        return results;
    }

    private static JobConf conf(Path dir, long totalBytes) throws IOException {
        JobConf conf = new JobConf();
        conf.setUser(System.getProperty("user.name"));
        conf.setNumMapTasks(WarmupMapOutputs.MAPS);
        conf.setNumReduceTasks(2);
        conf.setMapOutputKeyClass(Text.class);
        conf.setMapOutputValueClass(Text.class);
        conf.set(MRConfig.LOCAL_DIR, Files.createDirectories(dir.resolve("reduce-local")).toString());
        // Shuffle memory is the total map output: the two large outputs (a quarter each) exceed the
        // single-shuffle limit (0.25 x 0.7) and go to disk, the small ones to memory, where every
        // 0.3 x 0.7 of them is merged to disk; three files on disk start an on-disk merge (factor
        // 2), and the final merge takes several passes.
        conf.setLong("mapreduce.reduce.memory.totalbytes", totalBytes);
        conf.setFloat("mapreduce.reduce.shuffle.merge.percent", 0.3f);
        conf.setInt("mapreduce.task.io.sort.factor", 2);
        conf.setInt("mapreduce.reduce.shuffle.parallelcopies", 2);
        conf.setInt("jvmreuse.shuffle.chunk-bytes", 64 << 10); // several chunks per segment, as in real shuffles
        return conf;
    }

    /** The MPI shuffle's plug-in over an in-JVM loop, or null where the MPI shuffle is not on the class path. */
    private static ShuffleConsumerPlugin<Text, Text> mpiPlugin(Path localDir, int port) {
        return ServiceLoader.load(WarmupShuffle.class, ShuffleWarmup.class.getClassLoader()).findFirst()
                .map(offered -> offered.<Text, Text>plugin(localDir, port)).orElse(null);
    }

    private static Result reduce(String path, ShuffleConsumerPlugin<Text, Text> plugin, JobConf conf, TaskUmbilicalProtocol events,
                                 SecretKey secret, WarmupMapOutputs outputs) throws Exception {
        long start = System.nanoTime();
        TaskAttemptID reduceId = TaskAttemptID.forName(REDUCE);
        ReduceTask task = new ReduceTask("job.xml", reduceId, 0, WarmupMapOutputs.MAPS, 1);
        task.setShuffleSecret(secret);
        Counters counters = new Counters();
        ShuffleConsumerPlugin.Context<Text, Text> context = ShuffleContexts.of(task, conf, events, counters);
        long records = 0;
        long bytes = 0;
        try {
            plugin.init(context);
            RawKeyValueIterator merged = plugin.run();
            try {
                while (merged.next()) {
                    DataInputBuffer key = merged.getKey();
                    DataInputBuffer value = merged.getValue();
                    records++;
                    bytes += key.getLength() - key.getPosition() + value.getLength() - value.getPosition();
                }
            } finally {
                merged.close();
            }
        } finally {
            plugin.close();
        }
        Result result = new Result(path, records, bytes, counters, (System.nanoTime() - start) / 1_000_000);
        if (records != outputs.records || bytes != outputs.bytes
                || result.counter(TaskCounter.SHUFFLED_MAPS) != outputs.maps.size()) {
            throw new IOException("the " + path + " shuffle warm-up merged " + records + " records, " + bytes + " bytes of "
                    + result.counter(TaskCounter.SHUFFLED_MAPS) + " maps; the maps wrote " + outputs.records + ", "
                    + outputs.bytes + " of " + outputs.maps.size());
        }
        return result;
    }
}
