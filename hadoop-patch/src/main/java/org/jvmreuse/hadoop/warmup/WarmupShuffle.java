package org.jvmreuse.hadoop.warmup;

import java.nio.file.Path;
import org.apache.hadoop.mapred.ShuffleConsumerPlugin;

/**
 * A shuffle plug-in that a library on the slots' shared class path offers to their warm-up
 * ({@link ShuffleWarmup}): one that fetches over an in-JVM loop what the warm-up's map outputs
 * hold, so a slot's first real reducer finds that plug-in compiled. Found with
 * {@link java.util.ServiceLoader} ({@code META-INF/services/org.jvmreuse.hadoop.warmup.WarmupShuffle};
 * the MPI shuffle provides one).
 */
public interface WarmupShuffle {
    /**
     * A new plug-in instance over the map outputs under {@code localDir} (laid out as a
     * NodeManager keeps them), whose HTTP shuffle server listens on {@code shufflePort}.
     */
    <K, V> ShuffleConsumerPlugin<K, V> plugin(Path localDir, int shufflePort);
}
