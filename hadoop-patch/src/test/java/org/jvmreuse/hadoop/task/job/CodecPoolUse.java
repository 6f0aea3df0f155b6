package org.jvmreuse.hadoop.task.job;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.compress.CodecPool;
import org.apache.hadoop.io.compress.Compressor;
import org.apache.hadoop.io.compress.DefaultCodec;

/** Takes a compressor from the codec pool, prints which (its identity), and returns it to the pool. */
public final class CodecPoolUse {
    public static void main(String[] args) {
        DefaultCodec codec = new DefaultCodec();
        codec.setConf(new Configuration());
        Compressor compressor = CodecPool.getCompressor(codec);
        System.out.println("compressor=" + System.identityHashCode(compressor));
        CodecPool.returnCompressor(compressor);
    }
}
