package org.jvmreuse.workloads.pagerank;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jvmreuse.workloads.generate.GraphGenerator;
import org.jvmreuse.workloads.generate.PartFiles;
import org.jvmreuse.workloads.io.OutputLayout;
import org.jvmreuse.workloads.testing.LocalJobs;
import org.jvmreuse.workloads.timing.IterationTiming;
import org.jvmreuse.workloads.timing.TimingCsv;

/** The MapReduce PageRank (LocalJobRunner) against the in-memory reference on a generated graph. */
class PageRankJobTest {
    private static final int NODES = 200;

    @TempDir
    Path dir;
    private FileSystem fs;
    private org.apache.hadoop.fs.Path graph;

    @BeforeEach
    void graph() throws Exception {
        fs = LocalJobs.fs(dir);
        graph = LocalJobs.path(dir.resolve("graph"));
        PartFiles.write(fs, graph, 3, NODES, new GraphGenerator(NODES, 5, 0.15, 42));
    }

    @Test
    void ranksMatchTheReferenceAndSumToOne() throws Exception {
        long dangling = Files.readAllLines(dir.resolve("graph/part-00001")).stream().filter(l -> l.endsWith("\t")).count();
        assertTrue(dangling > 0, "the graph has dangling nodes");
        int iterations = 5;
        org.apache.hadoop.fs.Path output = LocalJobs.path(dir.resolve("out"));
        assertEquals(0, LocalJobs.run(dir, new PageRankDriver(), "--input", graph.toString(), "--output",
                output.toString(), "--iterations", Integer.toString(iterations), "--timings", dir.resolve("t").toString()));

        ReferencePageRank reference = ReferencePageRank.load(fs, graph, PageRankMath.DEFAULT_DAMPING);
        reference.run(iterations, 0);
        Map<String, Double> ranks = PageRankCheck.readRanks(fs, OutputLayout.iteration(output, iterations));
        assertEquals(NODES, ranks.size());
        assertTrue(PageRankCheck.maxDifference(reference.ranks(), ranks) <= 1e-9,
                "max difference " + PageRankCheck.maxDifference(reference.ranks(), ranks));
        assertEquals(1.0, ranks.values().stream().mapToDouble(Double::doubleValue).sum(), 1e-9);
        double uniform = 1.0 / NODES;
        assertTrue(ranks.values().stream().anyMatch(r -> Math.abs(r - uniform) > uniform / 2), "ranks moved");

        List<IterationTiming> rows = TimingCsv.readIterations(dir.resolve("t/pagerank-iterations.csv"));
        assertEquals(List.of(0, 1, 2, 3, 4, 5), rows.stream().map(IterationTiming::iteration).toList());
        assertTrue(rows.stream().allMatch(r -> r.jobId().startsWith("job_") && r.submitToFinishMs() > 0));
        assertTrue(Double.isNaN(rows.get(0).change()) && rows.get(5).change() < rows.get(1).change(), "L1 change shrinks");
        assertEquals(0, LocalJobs.run(dir, new PageRankCheck(), "--graph", graph.toString(), "--output", output.toString()));
    }

    @Test
    void stopsAtTheFirstIterationWhoseChangeIsBelowTheThreshold() throws Exception {
        ReferencePageRank probe = ReferencePageRank.load(fs, graph, PageRankMath.DEFAULT_DAMPING);
        List<Double> changes = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            changes.add(probe.step());
        }
        double threshold = (changes.get(2) + changes.get(3)) / 2;
        assertTrue(changes.get(0) > threshold && changes.get(1) > threshold && changes.get(2) > threshold,
                "changes fall: " + changes);
        org.apache.hadoop.fs.Path output = LocalJobs.path(dir.resolve("out"));
        assertEquals(0, LocalJobs.run(dir, new PageRankDriver(), "--input", graph.toString(), "--output",
                output.toString(), "--iterations", "10", "--threshold", Double.toString(threshold), "--timings",
                dir.resolve("t").toString()));

        assertEquals(4, OutputLayout.last(fs, output, OutputLayout.ITERATION));
        ReferencePageRank reference = ReferencePageRank.load(fs, graph, PageRankMath.DEFAULT_DAMPING);
        assertEquals(4, reference.run(10, threshold));
        Map<String, Double> ranks = PageRankCheck.readRanks(fs, OutputLayout.iteration(output, 4));
        assertTrue(PageRankCheck.maxDifference(reference.ranks(), ranks) <= 1e-9);
    }

    @Test
    void aLinkToANodeWithoutALineFailsTheRun() throws Exception {
        Files.createDirectories(dir.resolve("broken"));
        Files.writeString(dir.resolve("broken/part-00000"), "a\tb,z\nb\ta\n");
        org.apache.hadoop.fs.Path output = LocalJobs.path(dir.resolve("out-broken"));
        IOException e = assertThrows(IOException.class, () -> LocalJobs.run(dir, new PageRankDriver(), "--input",
                dir.resolve("broken").toString(), "--output", output.toString(), "--iterations", "2", "--timings",
                dir.resolve("t").toString()));
        assertTrue(e.getMessage().contains("1 nodes are linked to but have no line"), e.getMessage());
        assertFalse(fs.exists(OutputLayout.iteration(output, 2)));
    }
}
