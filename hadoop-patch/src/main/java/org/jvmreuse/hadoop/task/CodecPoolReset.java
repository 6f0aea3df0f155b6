package org.jvmreuse.hadoop.task;

import static org.jvmreuse.hadoop.names.HadoopNames.CodecPoolReset.BZIP2_SKIP;
import static org.jvmreuse.hadoop.names.HadoopNames.CodecPoolReset.COMPRESSOR_COUNTS;
import static org.jvmreuse.hadoop.names.HadoopNames.CodecPoolReset.COMPRESSOR_POOL;
import static org.jvmreuse.hadoop.names.HadoopNames.CodecPoolReset.DECOMPRESSOR_COUNTS;
import static org.jvmreuse.hadoop.names.HadoopNames.CodecPoolReset.DECOMPRESSOR_POOL;
import static org.jvmreuse.hadoop.names.HadoopNames.CodecPoolReset.INVALIDATE_ALL;

import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.hadoop.io.compress.CodecPool;
import org.apache.hadoop.io.compress.Compressor;
import org.apache.hadoop.io.compress.Decompressor;
import org.jvmreuse.hadoop.names.FieldName;

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
        SharedClasses.loaded(COMPRESSOR_POOL.owner()).ifPresent(c -> {
            drain(pool(COMPRESSOR_POOL), o -> ((Compressor) o).end());
            drain(pool(DECOMPRESSOR_POOL), o -> ((Decompressor) o).end());
            Fields.callAsDeclared(Fields.getStatic(CodecPool.class, COMPRESSOR_COUNTS), INVALIDATE_ALL);
            Fields.callAsDeclared(Fields.getStatic(CodecPool.class, DECOMPRESSOR_COUNTS), INVALIDATE_ALL);
        });
        BZIP2_SKIP.ifPresent(skip -> SharedClasses.loaded(skip.owner()).ifPresent(c ->
                Fields.setStatic(c, skip, false)));
    }

    private static Map<?, ? extends List<?>> pool(FieldName field) {
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
