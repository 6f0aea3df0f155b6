package org.jvmreuse.workloads.pagerank;

import java.io.IOException;
import java.util.Set;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.jvmreuse.workloads.cli.Options;
import org.jvmreuse.workloads.cli.UsageException;
import org.jvmreuse.workloads.io.OutputLayout;
import org.jvmreuse.workloads.iterative.IterativeDriver;

/**
 * Iterative PageRank: a set-up job counts the nodes (N) and the dangling nodes' rank (D), then
 * each iteration is one job reading the previous iteration's ranked lines. Options besides the
 * common ones: --damping d (default 0.85), --threshold t (stop once the L1 change of the rank
 * vector is below t; default 0: run all iterations).
 */
public final class PageRankDriver extends IterativeDriver {
    public static final String USAGE = "pagerank --input GRAPH --output DIR --iterations N [--threshold T] [--damping D]"
            + " [--reducers R] [--label L] [--timings DIR] [--results CSV --mode MODE]";

    private Path input;
    private Path output;
    private double damping;
    private double threshold;
    private long nodes;
    private double danglingMass;

    @Override
    protected String workload() {
        return "pagerank";
    }

    @Override
    protected String changeName() {
        return "L1 change";
    }

    @Override
    protected Set<String> workloadOptions() {
        return Set.of("damping", "threshold");
    }

    @Override
    protected void start(Options options, FileSystem fs, Path graph, Path out) throws Exception {
        input = graph;
        output = out;
        damping = options.getDouble("damping", PageRankMath.DEFAULT_DAMPING);
        threshold = options.getDouble("threshold", 0);
        if (!(damping >= 0 && damping <= 1)) {
            throw new UsageException("--damping must be within [0, 1]");
        }
        Job count = newJob("count nodes");
        PageRankJobs.count(count, input);
        Counters counters = runSetupJob(count).getCounters();
        nodes = counters.findCounter(PageRankCounter.NODES).getValue();
        if (nodes == 0) {
            throw new IOException("no nodes in " + input);
        }
        danglingMass = PageRankMath.initialDanglingMass(counters.findCounter(PageRankCounter.DANGLING_NODES).getValue(),
                counters.findCounter(PageRankCounter.DANGLING_MASS).getValue(), nodes);
        System.out.println("[pagerank] " + nodes + " nodes, dangling rank " + danglingMass);
    }

    @Override
    protected Job iterationJob(int iteration) throws IOException {
        Job job = newJob("iteration " + iteration);
        Path from = iteration == 1 ? input : OutputLayout.iteration(output, iteration - 1);
        PageRankJobs.iteration(job, from, OutputLayout.iteration(output, iteration), nodes, damping, danglingMass);
        return job;
    }

    @Override
    protected Step afterIteration(int iteration, Job job) throws IOException {
        Counters counters = job.getCounters();
        long missing = counters.findCounter(PageRankCounter.MISSING_NODES).getValue();
        if (missing > 0) {
            throw new IOException(missing + " nodes are linked to but have no line of their own in " + input);
        }
        long written = counters.findCounter(PageRankCounter.NODES).getValue();
        if (written != nodes) {
            throw new IOException("iteration " + iteration + " wrote " + written + " nodes, expected " + nodes);
        }
        danglingMass = PageRankMath.fromCounter(counters.findCounter(PageRankCounter.DANGLING_MASS).getValue());
        double change = PageRankMath.fromCounter(counters.findCounter(PageRankCounter.L1_CHANGE).getValue());
        return new Step(change, change < threshold);
    }

    @Override
    protected Path result(int iteration) {
        return OutputLayout.iteration(output, iteration);
    }
}
