package org.jvmreuse.it.hadoop.jobs;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URL;
import java.net.URLConnection;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.FsUrlStreamHandlerFactory;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * The idiom of Hadoop's documentation: the mapper installs {@code FsUrlStreamHandlerFactory}
 * in its static initialiser (allowed once per JVM) and reads its input file through a
 * {@code java.net.URL}. Each task writes how many lines it read and which connection class
 * served the URL. Input: a file with one line per map task. Args: in out.
 */
public class UrlFactoryJob extends Configured implements Tool {
    public static class UrlMapper extends Mapper<LongWritable, Text, Text, Text> {
        static {
            URL.setURLStreamHandlerFactory(new FsUrlStreamHandlerFactory());
        }

        @Override
        protected void map(LongWritable key, Text value, Context context) throws IOException, InterruptedException {
            URL url = ((FileSplit) context.getInputSplit()).getPath().toUri().toURL();
            URLConnection connection = url.openConnection();
            int lines = 0;
            try (BufferedReader in = new BufferedReader(new InputStreamReader(connection.getInputStream(),
                    StandardCharsets.UTF_8))) {
                while (in.readLine() != null) {
                    lines++;
                }
            }
            context.write(value, new Text("lines=" + lines + "\tvia=" + connection.getClass().getName()));
        }
    }

    @Override
    public int run(String[] args) throws Exception {
        return MapOnlyJob.run(getConf(), "url-factory", UrlFactoryJob.class, UrlMapper.class, args);
    }

    public static void main(String[] args) throws Exception {
        System.exit(ToolRunner.run(new UrlFactoryJob(), args));
    }
}
