package org.jvmreuse.workloads.kmeans;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.jvmreuse.workloads.io.TextFiles;

/** K-means in one process with the jobs' rules ({@link Centroids}); differs only by the order of additions. */
public final class ReferenceKMeans {
    private final List<double[]> points;
    private Centroids centroids;

    public ReferenceKMeans(List<double[]> points, Centroids initial) {
        this.points = points;
        this.centroids = initial;
    }

    /** All points of a file or directory, starting from the first k as the jobs do. */
    public static ReferenceKMeans load(FileSystem fs, Path input, int k) throws IOException {
        List<double[]> points = new ArrayList<>();
        TextFiles.read(fs, input, line -> {
            double[] point = Points.parse(line);
            return point == null || points.add(point);
        });
        return new ReferenceKMeans(points, Centroids.firstPoints(fs, input, k));
    }

    /** One iteration; returns how far the farthest centroid moved. */
    public double step() {
        int k = centroids.k();
        int d = centroids.dimensions();
        double[][] sums = new double[k][d];
        long[] counts = new long[k];
        for (double[] p : points) {
            int c = centroids.nearest(p);
            counts[c]++;
            for (int j = 0; j < d; j++) {
                sums[c][j] += p[j];
            }
        }
        Map<Integer, double[]> means = new HashMap<>();
        for (int c = 0; c < k; c++) {
            if (counts[c] > 0) {
                for (int j = 0; j < d; j++) {
                    sums[c][j] /= counts[c];
                }
                means.put(c, sums[c]);
            }
        }
        Centroids next = centroids.updated(means);
        double movement = centroids.maxMovement(next);
        centroids = next;
        return movement;
    }

    /** Up to {@code maxIterations} steps, stopping after one that moved no centroid {@code epsilon} or more. */
    public Centroids run(int maxIterations, double epsilon) {
        for (int i = 0; i < maxIterations; i++) {
            if (step() < epsilon) {
                break;
            }
        }
        return centroids;
    }
}
