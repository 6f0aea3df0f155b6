package org.jvmreuse.it.hadoop.jobs;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.FsUrlStreamHandlerFactory;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * The idiom of Hadoop's documentation: the mapper installs {@code FsUrlStreamHandlerFactory}
 * in its static initialiser (allowed once per JVM) and reads its input file through a
 * {@code java.net.URL} ({@code URL.openStream}) that the factory serves. Each task writes how
 * many lines it read and which connection class served the URL. Input: a file with one line per
 * map task. Args: in out.
 */
public class UrlFactoryJob extends Configured implements Tool {
    static final String SCHEME = "jrlocal";

    /**
     * The local file system under the scheme: 3.x's FsUrlConnection opens the URL's whole URI
     * (2.2's its path only), which a file system accepts only with its own scheme.
     */
    public static class SchemeLocalFileSystem extends RawLocalFileSystem {
        @Override
        public URI getUri() {
            return URI.create(SCHEME + ":///");
        }
    }

    public static class UrlMapper extends Mapper<LongWritable, Text, Text, Text> {
        static {
            // A scheme only Hadoop serves (the local file system under another name): the JDK
            // never lets a factory take file: URLs, and this cluster has no HDFS.
            Configuration conf = new Configuration();
            conf.set("fs." + SCHEME + ".impl", SchemeLocalFileSystem.class.getName());
            URL.setURLStreamHandlerFactory(new FsUrlStreamHandlerFactory(conf));
        }

        @Override
        protected void map(LongWritable key, Text value, Context context) throws IOException, InterruptedException {
            URL url = new URL(SCHEME, null, ((FileSplit) context.getInputSplit()).getPath().toUri().getPath());
            int lines = 0;
            try (BufferedReader in = new BufferedReader(new InputStreamReader(url.openStream(), StandardCharsets.UTF_8))) {
                while (in.readLine() != null) {
                    lines++;
                }
            }
            context.write(value, new Text("lines=" + lines + "\tvia=" + url.openConnection().getClass().getName()));
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
