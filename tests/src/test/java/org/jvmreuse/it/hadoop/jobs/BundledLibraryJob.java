package org.jvmreuse.it.hadoop.jobs;

import java.io.IOException;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * A map-only job whose tasks call a library class Hadoop ships (commons-lang's CharSetUtils),
 * which a test's job jar may bundle in its own version: each task writes what the call returned
 * through the job's class loader. Input: a file with one line per map task. Args: in out.
 */
public class BundledLibraryJob extends Configured implements Tool {
    static final String LIBRARY_CLASS = "org.apache.commons.lang.CharSetUtils";

    public static class LibraryMapper extends Mapper<LongWritable, Text, Text, Text> {
        @Override
        protected void map(LongWritable key, Text value, Context context) throws IOException, InterruptedException {
            String count;
            try {
                // As a direct call from the job's code would resolve it, without compiling against commons-lang.
                count = String.valueOf(Class.forName(LIBRARY_CLASS, true, LibraryMapper.class.getClassLoader())
                        .getMethod("count", String.class, String.class).invoke(null, "hello", "l"));
            } catch (ReflectiveOperationException e) {
                count = e.toString();
            }
            context.write(new Text("CharSetUtils.count(hello,l)"), new Text(count));
        }
    }

    @Override
    public int run(String[] args) throws Exception {
        return MapOnlyJob.run(getConf(), "bundled-library", BundledLibraryJob.class, LibraryMapper.class, args);
    }

    public static void main(String[] args) throws Exception {
        System.exit(ToolRunner.run(new BundledLibraryJob(), args));
    }
}
