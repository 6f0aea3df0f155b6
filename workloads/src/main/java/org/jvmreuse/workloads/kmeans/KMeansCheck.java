package org.jvmreuse.workloads.kmeans;

import java.util.Set;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.Tool;
import org.jvmreuse.workloads.cli.Options;
import org.jvmreuse.workloads.cli.UsageException;
import org.jvmreuse.workloads.io.OutputLayout;

/**
 * verify-kmeans: compares a run's last centroids with the single-process computation for as many
 * iterations (k from the run's initial centroid file). Exit status 0 within the tolerance (default
 * 1e-9 per coordinate), else 1.
 */
public final class KMeansCheck extends Configured implements Tool {
    public static final String USAGE = "verify-kmeans --input POINTS --output DIR [--tolerance T]";

    @Override
    public int run(String[] args) throws Exception {
        Options options = Options.parse(args, Set.of("input", "output", "tolerance"));
        Path input = new Path(options.get("input"));
        Path output = new Path(options.get("output"));
        double tolerance = options.getDouble("tolerance", 1e-9);
        FileSystem fs = output.getFileSystem(getConf());
        int iterations = OutputLayout.last(fs, output, KMeansDriver.CENTROIDS);
        if (iterations == 0) {
            throw new UsageException("no " + KMeansDriver.CENTROIDS + "NNN after 000 in " + output);
        }
        int k = Centroids.read(fs, OutputLayout.numbered(output, KMeansDriver.CENTROIDS, 0)).k();
        Centroids expected = ReferenceKMeans.load(fs, input, k).run(iterations, 0);
        Centroids actual = Centroids.read(fs, OutputLayout.numbered(output, KMeansDriver.CENTROIDS, iterations));
        double difference = maxDifference(expected, actual);
        System.out.printf("k = %d after %d iterations: max |job - reference| = %.3g%n", k, iterations, difference);
        return difference <= tolerance ? 0 : 1;
    }

    /** The largest difference of one coordinate; infinite when k or the dimensions differ. */
    public static double maxDifference(Centroids expected, Centroids actual) {
        if (expected.k() != actual.k() || expected.dimensions() != actual.dimensions()) {
            return Double.POSITIVE_INFINITY;
        }
        double max = 0;
        for (int i = 0; i < expected.k(); i++) {
            double[] e = expected.get(i);
            double[] a = actual.get(i);
            for (int j = 0; j < e.length; j++) {
                max = Math.max(max, Math.abs(e[j] - a[j]));
            }
        }
        return max;
    }
}
