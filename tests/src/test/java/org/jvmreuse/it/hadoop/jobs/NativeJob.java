package org.jvmreuse.it.hadoop.jobs;

import java.io.IOException;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * A map-only job whose mapper loads the tests' JNI counter library (System.loadLibrary, found on
 * the -Djava.library.path of mapreduce.map.java.opts) and writes, per input line, the native
 * counter after incrementing it: 1 in a task that has a new JVM. Args: in out.
 */
public class NativeJob extends Configured implements Tool {
    static native int increment();

    public static class NativeMapper extends Mapper<LongWritable, Text, Text, Text> {
        @Override
        protected void setup(Context context) {
            System.loadLibrary("jvmreusecounter");
        }

        @Override
        protected void map(LongWritable key, Text value, Context context) throws IOException, InterruptedException {
            context.write(value, new Text("counter=" + increment()));
        }
    }

    @Override
    public int run(String[] args) throws Exception {
        return MapOnlyJob.run(getConf(), "native", NativeJob.class, NativeMapper.class, args);
    }

    public static void main(String[] args) throws Exception {
        System.exit(ToolRunner.run(new NativeJob(), args));
    }
}
