package org.jvmreuse.hadoop.task;

import com.google.common.cache.Cache;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.hadoop.io.compress.CodecPool;
import org.apache.hadoop.io.compress.Compressor;
import org.apache.hadoop.io.compress.Decompressor;

/**
 * CodecPool's pools of returned (de)compressors, keyed by class (a job's codec classes too), and
 * its lease counters. A new JVM has none; pooled ones are ended, which frees native buffers.
 * Also the bzip2 reader's static skip flag, which a task stopped between setting and clearing it
 * would pass on to the next one.
 */
final class CodecPoolReset {
    private CodecPoolReset() {
    }

    static void afterRun() {
        SharedClasses.loaded("org.apache.hadoop.io.compress.CodecPool").ifPresent(c -> {
            drain(pool("compressorPool"), o -> ((Compressor) o).end());
            drain(pool("decompressorPool"), o -> ((Decompressor) o).end());
            ((Cache<?, ?>) Fields.getStatic(CodecPool.class, "compressorCounts")).invalidateAll();
            ((Cache<?, ?>) Fields.getStatic(CodecPool.class, "decompressorCounts")).invalidateAll();
        });
        SharedClasses.loaded("org.apache.hadoop.io.compress.bzip2.CBZip2InputStream").ifPresent(c ->
                Fields.setStatic(c, "skipDecompression", false));
    }

    private static Map<?, ? extends List<?>> pool(String field) {
        @SuppressWarnings("unchecked")
        Map<?, ? extends List<?>> pool = (Map<?, ? extends List<?>>) Fields.getStatic(CodecPool.class, field);
        return pool;
    }

    private static void drain(Map<?, ? extends List<?>> pool, Consumer<Object> end) {
        synchronized (pool) {
            pool.values().forEach(codecs -> codecs.forEach(end));
            pool.clear();
        }
    }
}
