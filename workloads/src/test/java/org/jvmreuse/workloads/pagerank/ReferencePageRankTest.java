package org.jvmreuse.workloads.pagerank;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jvmreuse.workloads.testing.LocalJobs;

/** The reference itself against numbers worked out by hand, so the jobs are not checked against a shared mistake. */
class ReferencePageRankTest {
    @TempDir
    Path dir;

    @Test
    void oneStepSpreadsDanglingRankAndTeleportsAsTheFormulaSays() throws Exception {
        // a -> b, b -> a and c, c dangling; N = 3, d = 0.85, all start at 1/3, D = 1/3.
        ReferencePageRank pr = load("a\tb\nb\ta,c\nc\t\n");
        double change = pr.step();
        Map<String, Double> r = pr.ranks();
        double teleport = 0.15 / 3;
        double dangling = 0.85 * (1.0 / 3) / 3;
        assertEquals(teleport + 0.85 * (1.0 / 6) + dangling, r.get("a"), 1e-15);
        assertEquals(teleport + 0.85 * (1.0 / 3) + dangling, r.get("b"), 1e-15);
        assertEquals(teleport + 0.85 * (1.0 / 6) + dangling, r.get("c"), 1e-15);
        assertEquals(1.0, r.values().stream().mapToDouble(Double::doubleValue).sum(), 1e-15);
        assertEquals(Math.abs(r.get("a") - 1.0 / 3) * 2 + Math.abs(r.get("b") - 1.0 / 3), change, 1e-14);
    }

    @Test
    void rankedLinesStartFromTheirRanks() throws Exception {
        ReferencePageRank pr = load("a\t0.5\tb\nb\t0.5\t\n");
        pr.step();
        // D = 0.5 (b); a gets nothing but teleport and D; b gets all of a.
        assertEquals(0.075 + 0.85 * 0.25, pr.ranks().get("a"), 1e-15);
        assertEquals(0.075 + 0.85 * (0.5 + 0.25), pr.ranks().get("b"), 1e-15);
    }

    @Test
    void convergesToTheFixedPoint() throws Exception {
        ReferencePageRank pr = load("a\tb\nb\ta,c\nc\t\n");
        pr.run(200, 0);
        Map<String, Double> fixed = pr.ranks();
        assertEquals(0, pr.step(), 1e-14, "another step changes nothing");
        // At the fixed point: a = t + d (b/2 + c/3), b = t + d (a + c/3), c = t + d (b/2 + c/3).
        double a = fixed.get("a");
        double b = fixed.get("b");
        double c = fixed.get("c");
        assertEquals(0.05 + 0.85 * (b / 2 + c / 3), a, 1e-12);
        assertEquals(0.05 + 0.85 * (a + c / 3), b, 1e-12);
        assertEquals(a, c, 1e-12);
    }

    @Test
    void aLinkToANodeWithoutALineIsAnError() {
        assertThrows(IOException.class, () -> load("a\tb,z\nb\ta\n"));
    }

    private ReferencePageRank load(String graph) throws Exception {
        Path file = dir.resolve("graph.txt");
        Files.writeString(file, graph);
        FileSystem fs = LocalJobs.fs(dir);
        return ReferencePageRank.load(fs, LocalJobs.path(file), PageRankMath.DEFAULT_DAMPING);
    }
}
