package org.jvmreuse.workloads;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class MainTest {
    @Test
    void unknownCommandsAndOptionsAreUsageErrors() throws Exception {
        assertEquals(2, Main.run(new String[] {"no-such-command"}));
        assertEquals(2, Main.run(new String[] {"pagerank", "--output", "/tmp/x", "--iterations", "2"}), "no --input");
        assertEquals(2, Main.run(new String[] {"generate-graph", "--output", "/tmp/x", "--nodes", "10", "--bogus", "1"}));
        assertEquals(2, Main.run(new String[] {"kmeans", "--input", "/tmp/x", "--output", "/tmp/y", "--iterations"}));
        assertEquals(2, Main.run(new String[] {"job-time", "--job", "not-a-job"}));
        // The local job runner (the default framework) knows no such job: not found, status 1.
        assertEquals(1, Main.run(new String[] {"job-time", "--job", "job_1_0001", "--wait", "0"}));
        assertEquals(2, Main.run(new String[] {"job-time", "--wait", "1"}), "no --job");
        assertEquals(0, Main.run(new String[] {"--help"}));
    }
}
