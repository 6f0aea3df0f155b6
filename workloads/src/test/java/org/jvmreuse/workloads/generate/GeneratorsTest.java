package org.jvmreuse.workloads.generate;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jvmreuse.workloads.kmeans.Points;
import org.jvmreuse.workloads.pagerank.GraphLine;
import org.jvmreuse.workloads.testing.LocalJobs;

class GeneratorsTest {
    @TempDir
    Path dir;
    private FileSystem fs;

    @BeforeEach
    void fs() throws Exception {
        fs = LocalJobs.fs(dir);
    }

    @Test
    void graphsAreTheSameBytesForTheSameSeedOnly() throws Exception {
        assertEquals(0, LocalJobs.run(dir, new GenerateGraph(), "--output", dir.resolve("a").toString(), "--nodes", "3000",
                "--seed", "9", "--parts", "3"));
        assertEquals(0, LocalJobs.run(dir, new GenerateGraph(), "--output", dir.resolve("b").toString(), "--nodes", "3000",
                "--seed", "9", "--parts", "3"));
        assertEquals(0, LocalJobs.run(dir, new GenerateGraph(), "--output", dir.resolve("c").toString(), "--nodes", "3000",
                "--seed", "10", "--parts", "3"));
        for (String part : List.of("part-00000", "part-00001", "part-00002")) {
            assertArrayEquals(Files.readAllBytes(dir.resolve("a").resolve(part)), Files.readAllBytes(dir.resolve("b").resolve(part)));
            assertFalse(Files.readString(dir.resolve("a").resolve(part)).equals(Files.readString(dir.resolve("c").resolve(part))));
        }
    }

    @Test
    void graphHasOneLinePerNodeDanglingNodesAndPowerLawInDegrees() throws Exception {
        int nodes = 5000;
        PartFiles.write(fs, LocalJobs.path(dir.resolve("g")), 4, nodes, new GraphGenerator(nodes, 8, 0.1, 3));
        List<GraphLine> lines = new ArrayList<>();
        for (int p = 0; p < 4; p++) {
            List<String> part = Files.readAllLines(dir.resolve("g/part-0000" + p));
            assertEquals(nodes / 4, part.size(), "equal parts");
            part.forEach(l -> lines.add(GraphLine.parse(l)));
        }
        int[] inDegree = new int[nodes];
        int dangling = 0;
        long edges = 0;
        for (int i = 0; i < nodes; i++) {
            GraphLine line = lines.get(i);
            assertEquals(Integer.toString(i), line.node());
            assertFalse(line.hasRank(), "plain adjacency lines");
            Set<String> targets = new HashSet<>(List.of(line.targets()));
            assertEquals(line.targets().length, targets.size(), "distinct targets");
            assertFalse(targets.contains(line.node()), "no self-links");
            for (String t : targets) {
                inDegree[Integer.parseInt(t)]++;
            }
            dangling += targets.isEmpty() ? 1 : 0;
            edges += targets.size();
        }
        assertTrue(dangling > nodes * 0.07 && dangling < nodes * 0.13, dangling + " dangling nodes");
        double meanDegree = (double) edges / nodes;
        assertTrue(meanDegree > 5 && meanDegree < 9, "mean out-degree " + meanDegree);
        int maxIn = java.util.Arrays.stream(inDegree).max().getAsInt();
        assertTrue(maxIn > 20 * meanDegree, "a hub: max in-degree " + maxIn);
    }

    @Test
    void aHundredThousandNodesTakeSeconds() throws Exception {
        long start = System.nanoTime();
        PartFiles.write(fs, LocalJobs.path(dir.resolve("big")), 8, 100_000, new GraphGenerator(100_000, 8, 0.1, 1));
        double seconds = (System.nanoTime() - start) / 1e9;
        assertTrue(seconds < 20, seconds + " s");
        assertEquals(100_000, Files.readAllLines(dir.resolve("big/part-00007")).size() * 8);
    }

    @Test
    void pointsHaveTheRequestedCountAndDimensionsAndRepeat() throws Exception {
        assertEquals(0, LocalJobs.run(dir, new GeneratePoints(), "--output", dir.resolve("p").toString(), "--points", "1001",
                "--k", "3", "--dimensions", "5", "--parts", "2", "--seed", "4"));
        PartFiles.write(fs, LocalJobs.path(dir.resolve("q")), 2, 1001, new PointGenerator(1001, 3, 5, 1, 10, 4));
        List<String> all = new ArrayList<>(Files.readAllLines(dir.resolve("p/part-00000")));
        all.addAll(Files.readAllLines(dir.resolve("p/part-00001")));
        assertEquals(1001, all.size());
        assertTrue(all.stream().allMatch(l -> Points.parse(l).length == 5));
        assertArrayEquals(Files.readAllBytes(dir.resolve("p/part-00001")), Files.readAllBytes(dir.resolve("q/part-00001")));
        assertNotEquals(Files.readString(dir.resolve("p/part-00000")), Files.readString(dir.resolve("p/part-00001")));
    }

    @Test
    void pointsGatherAroundKCentres() {
        PointGenerator generator = new PointGenerator(3000, 3, 2, 0.5, 20, 8);
        double[][] centres = generator.centres();
        double worst = 0;
        while (generator.hasNext()) {
            double[] p = Points.parse(generator.next());
            double nearest = Double.POSITIVE_INFINITY;
            for (double[] c : centres) {
                nearest = Math.min(nearest, Math.hypot(p[0] - c[0], p[1] - c[1]));
            }
            worst = Math.max(worst, nearest);
        }
        assertTrue(worst < 0.5 * 6, "every point within 6 sigma of a centre: " + worst);
    }

    @Test
    void refusesToWriteIntoAnExistingDirectory() throws Exception {
        Files.createDirectories(dir.resolve("exists"));
        assertThrows(IOException.class,
                () -> PartFiles.write(fs, LocalJobs.path(dir.resolve("exists")), 2, 10, new PointGenerator(10, 1, 1, 1, 1, 1)));
    }
}
