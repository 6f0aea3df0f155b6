package org.jvmreuse.shuffle.reduce;

import java.nio.file.Path;
import org.apache.hadoop.mapred.ShuffleConsumerPlugin;
import org.jvmreuse.hadoop.warmup.WarmupShuffle;

/**
 * What the MPI shuffle offers the slots' warm-up (META-INF/services/org.jvmreuse.hadoop.warmup.WarmupShuffle):
 * its plug-in over an in-JVM message loop ({@link LoopbackShuffle}).
 */
public final class LoopbackWarmup implements WarmupShuffle {
    @Override
    public <K, V> ShuffleConsumerPlugin<K, V> plugin(Path localDir, int shufflePort) {
        return new LoopbackShuffle<>(localDir, shufflePort);
    }
}
