package org.jvmreuse.workloads.kmeans;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jvmreuse.workloads.generate.PartFiles;
import org.jvmreuse.workloads.generate.PointGenerator;
import org.jvmreuse.workloads.io.OutputLayout;
import org.jvmreuse.workloads.testing.LocalJobs;

/** The MapReduce K-means (LocalJobRunner) against the single-process computation. */
class KMeansJobTest {
    @TempDir
    Path dir;
    private FileSystem fs;
    private org.apache.hadoop.fs.Path points;

    @BeforeEach
    void points() throws Exception {
        fs = LocalJobs.fs(dir);
        points = LocalJobs.path(dir.resolve("points"));
        PartFiles.write(fs, points, 3, 600, new PointGenerator(600, 4, 3, 1.5, 6, 7));
    }

    @Test
    void centroidsMatchTheSingleProcessComputation() throws Exception {
        org.apache.hadoop.fs.Path output = run(points, "4", "4", "0");
        Centroids initial = centroids(output, 0);
        assertArrayEquals(new double[][] {first(0), first(1), first(2), first(3)},
                new double[][] {initial.get(0), initial.get(1), initial.get(2), initial.get(3)}, "first k points");
        Centroids actual = centroids(output, 4);
        Centroids expected = ReferenceKMeans.load(fs, points, 4).run(4, 0);
        assertTrue(KMeansCheck.maxDifference(expected, actual) <= 1e-9, "difference " + KMeansCheck.maxDifference(expected, actual));
        assertTrue(initial.maxMovement(actual) > 0.1, "the centroids moved");
        assertEquals(0, LocalJobs.run(dir, new KMeansCheck(), "--input", points.toString(), "--output", output.toString()));
    }

    @Test
    void stopsAtTheFirstIterationThatMovesNoCentroidEpsilon() throws Exception {
        ReferenceKMeans probe = ReferenceKMeans.load(fs, points, 4);
        double first = probe.step();
        double second = probe.step();
        double epsilon = (first + second) / 2;
        assertTrue(first > epsilon && second < epsilon, "movements " + first + ", " + second);
        org.apache.hadoop.fs.Path output = run(points, "4", "6", Double.toString(epsilon));
        assertEquals(2, OutputLayout.last(fs, output, KMeansDriver.CENTROIDS));
    }

    @Test
    void anEmptyClusterKeepsItsCentroid() throws Exception {
        // Both initial centroids are (0, 0); ties go to cluster 0, so cluster 1 never gets a point.
        Files.createDirectories(dir.resolve("ties"));
        Files.writeString(dir.resolve("ties/part-00000"), "0,0\n0 0\n4,2\n2, 4\n");
        org.apache.hadoop.fs.Path output = run(LocalJobs.path(dir.resolve("ties")), "2", "1", "0");
        Centroids result = centroids(output, 1);
        assertArrayEquals(new double[] {1.5, 1.5}, result.get(0), 1e-12);
        assertArrayEquals(new double[] {0, 0}, result.get(1));
    }

    private org.apache.hadoop.fs.Path run(org.apache.hadoop.fs.Path input, String k, String iterations, String epsilon)
            throws Exception {
        org.apache.hadoop.fs.Path output = LocalJobs.path(dir.resolve("out-" + input.getName()));
        assertEquals(0, LocalJobs.run(dir, new KMeansDriver(), "--input", input.toString(), "--output", output.toString(),
                "--k", k, "--iterations", iterations, "--epsilon", epsilon, "--timings", dir.resolve("t").toString()));
        return output;
    }

    private Centroids centroids(org.apache.hadoop.fs.Path output, int iteration) throws Exception {
        return Centroids.read(fs, OutputLayout.numbered(output, KMeansDriver.CENTROIDS, iteration));
    }

    private double[] first(int n) throws Exception {
        List<String> lines = Files.readAllLines(dir.resolve("points/part-00000"));
        return Points.parse(lines.get(n));
    }
}
