package org.jvmreuse.workloads.kmeans;

import java.io.IOException;
import java.util.Set;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;
import org.jvmreuse.workloads.cli.Options;
import org.jvmreuse.workloads.cli.UsageException;
import org.jvmreuse.workloads.io.OutputLayout;
import org.jvmreuse.workloads.iterative.IterativeDriver;

/**
 * Iterative K-means. The driver writes the centroids of each iteration to
 * {@code OUTPUT/centroids-NNN} (000: the first k points of the input), names that file in the
 * next job's conf, and after the job merges the reducers' means into {@code centroids-(NNN+1)}.
 * Options besides the common ones: --k, --epsilon e (stop once no centroid moved e or more;
 * default 0: run all iterations).
 */
public final class KMeansDriver extends IterativeDriver {
    public static final String USAGE = "kmeans --input POINTS --output DIR --k K --iterations N [--epsilon E]"
            + " [--reducers R] [--label L] [--timings DIR] [--results CSV --mode MODE]";
    public static final String CENTROIDS = "centroids-";

    private FileSystem fs;
    private Path input;
    private Path output;
    private double epsilon;
    private Centroids centroids;

    @Override
    protected String workload() {
        return "kmeans";
    }

    @Override
    protected String changeName() {
        return "max centroid movement";
    }

    @Override
    protected Set<String> workloadOptions() {
        return Set.of("k", "epsilon");
    }

    @Override
    protected void start(Options options, FileSystem fileSystem, Path points, Path out) throws IOException {
        fs = fileSystem;
        input = points;
        output = fs.makeQualified(out);
        int k = options.getAtLeast("k", 1);
        epsilon = options.getDouble("epsilon", 0);
        if (epsilon < 0) {
            throw new UsageException("--epsilon must not be negative");
        }
        centroids = Centroids.firstPoints(fs, input, k);
        centroids.write(fs, centroidFile(0));
    }

    @Override
    protected Job iterationJob(int iteration) throws IOException {
        Job job = newJob("iteration " + iteration);
        KMeansJobs.iteration(job, input, centroidFile(iteration - 1), OutputLayout.iteration(output, iteration));
        return job;
    }

    @Override
    protected Step afterIteration(int iteration, Job job) throws IOException {
        Centroids next = centroids.updated(Centroids.readIndexed(fs, OutputLayout.iteration(output, iteration)));
        next.write(fs, centroidFile(iteration));
        double movement = centroids.maxMovement(next);
        centroids = next;
        return new Step(movement, movement < epsilon);
    }

    @Override
    protected Path result(int iteration) {
        return centroidFile(iteration);
    }

    private Path centroidFile(int iteration) {
        return OutputLayout.numbered(output, CENTROIDS, iteration);
    }
}
