package org.jvmreuse.workloads.pagerank;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.NullOutputFormat;

/** Configures the two PageRank jobs and names the settings their tasks read. */
public final class PageRankJobs {
    static final String NODES = "jvmreuse.pagerank.nodes";
    static final String DAMPING = "jvmreuse.pagerank.damping";
    /** D as Double.toString, which reads back exactly. */
    static final String DANGLING_MASS = "jvmreuse.pagerank.dangling.mass";

    private PageRankJobs() {
    }

    /** The set-up job: a map-only pass counting nodes and the dangling nodes' initial rank. */
    public static void count(Job job, Path graph) throws IOException {
        job.setMapperClass(NodeCountMapper.class);
        job.setNumReduceTasks(0);
        job.setOutputFormatClass(NullOutputFormat.class);
        FileInputFormat.addInputPath(job, graph);
    }

    public static void iteration(Job job, Path input, Path output, long nodes, double damping, double danglingMass)
            throws IOException {
        Configuration conf = job.getConfiguration();
        conf.setLong(NODES, nodes);
        conf.set(DAMPING, Double.toString(damping));
        conf.set(DANGLING_MASS, Double.toString(danglingMass));
        job.setMapperClass(PageRankMapper.class);
        job.setCombinerClass(PageRankCombiner.class);
        job.setReducerClass(PageRankReducer.class);
        job.setMapOutputKeyClass(Text.class);
        job.setMapOutputValueClass(RankMessage.class);
        job.setOutputKeyClass(Text.class);
        job.setOutputValueClass(Text.class);
        FileInputFormat.addInputPath(job, input);
        FileOutputFormat.setOutputPath(job, output);
    }

    static long nodes(Configuration conf) {
        long nodes = conf.getLong(NODES, 0);
        if (nodes <= 0) {
            throw new IllegalStateException(NODES + " is not set");
        }
        return nodes;
    }

    static double damping(Configuration conf) {
        return Double.parseDouble(conf.get(DAMPING));
    }

    static double danglingMass(Configuration conf) {
        return Double.parseDouble(conf.get(DANGLING_MASS));
    }
}
