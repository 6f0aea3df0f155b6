package org.jvmreuse.workloads.kmeans;

import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.jvmreuse.workloads.io.TextFiles;

/**
 * k centroids and the rules shared by the jobs and the reference: nearest centroid by Euclidean
 * distance (ties to the lower index), a cluster that lost all its points keeps its centroid.
 * File form: one line per centroid, {@code index TAB x1,x2,...} (also what the reducers write).
 */
public final class Centroids {
    private final double[][] centres;

    public Centroids(double[][] centres) {
        if (centres.length == 0) {
            throw new IllegalArgumentException("no centroids");
        }
        for (double[] c : centres) {
            if (c.length != centres[0].length) {
                throw new IllegalArgumentException("centroids of different dimensions");
            }
        }
        this.centres = centres;
    }

    public int k() {
        return centres.length;
    }

    public int dimensions() {
        return centres[0].length;
    }

    public double[] get(int index) {
        return centres[index].clone();
    }

    public int nearest(double[] point) {
        if (point.length != dimensions()) {
            throw new IllegalArgumentException("a point of " + point.length + " dimensions, centroids have " + dimensions());
        }
        int best = 0;
        double bestDistance = Double.POSITIVE_INFINITY;
        for (int i = 0; i < centres.length; i++) {
            double distance = 0;
            for (int j = 0; j < point.length; j++) {
                double d = point[j] - centres[i][j];
                distance += d * d;
            }
            if (distance < bestDistance) {
                best = i;
                bestDistance = distance;
            }
        }
        return best;
    }

    /** These centroids with some replaced (clusters missing from {@code updates} keep theirs). */
    public Centroids updated(Map<Integer, double[]> updates) {
        double[][] next = new double[centres.length][];
        for (int i = 0; i < centres.length; i++) {
            next[i] = updates.getOrDefault(i, centres[i]).clone();
        }
        return new Centroids(next);
    }

    /** The largest Euclidean distance a centroid moved between these and {@code other}. */
    public double maxMovement(Centroids other) {
        double max = 0;
        for (int i = 0; i < centres.length; i++) {
            double sum = 0;
            for (int j = 0; j < centres[i].length; j++) {
                double d = centres[i][j] - other.centres[i][j];
                sum += d * d;
            }
            max = Math.max(max, Math.sqrt(sum));
        }
        return max;
    }

    public void write(FileSystem fs, Path file) throws IOException {
        try (Writer out = new OutputStreamWriter(fs.create(file, true), StandardCharsets.UTF_8)) {
            for (int i = 0; i < centres.length; i++) {
                out.write(i + "\t" + Points.format(centres[i]) + "\n");
            }
        }
    }

    /** Centroid lines of a file or directory by index (a reducer's output holds only non-empty clusters). */
    public static Map<Integer, double[]> readIndexed(FileSystem fs, Path path) throws IOException {
        Map<Integer, double[]> byIndex = new HashMap<>();
        for (String line : TextFiles.lines(fs, path)) {
            if (!line.isEmpty()) {
                String[] fields = line.split("\t", -1);
                if (fields.length != 2) {
                    throw new IOException("not a centroid line (index TAB coordinates): " + line);
                }
                byIndex.put(Integer.parseInt(fields[0]), Points.parse(fields[1]));
            }
        }
        return byIndex;
    }

    /** A complete centroid file (indices 0..k-1). */
    public static Centroids read(FileSystem fs, Path path) throws IOException {
        Map<Integer, double[]> byIndex = readIndexed(fs, path);
        double[][] centres = new double[byIndex.size()][];
        for (int i = 0; i < centres.length; i++) {
            centres[i] = byIndex.get(i);
            if (centres[i] == null) {
                throw new IOException(path + ": no centroid " + i);
            }
        }
        return new Centroids(centres);
    }

    /** The initial centroids: the first k points of the input (files in name order). */
    public static Centroids firstPoints(FileSystem fs, Path input, int k) throws IOException {
        List<double[]> points = new ArrayList<>();
        TextFiles.read(fs, input, line -> {
            double[] point = Points.parse(line);
            if (point != null) {
                points.add(point);
            }
            return points.size() < k;
        });
        if (points.size() < k) {
            throw new IOException(input + " has " + points.size() + " points, fewer than k = " + k);
        }
        return new Centroids(points.toArray(new double[0][]));
    }
}
