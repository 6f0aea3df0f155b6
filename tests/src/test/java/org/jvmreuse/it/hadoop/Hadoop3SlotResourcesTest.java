package org.jvmreuse.it.hadoop;

import java.util.List;

/**
 * SlotResourcesTest's check, jobs with their AMs and tasks in three slots, on a Hadoop 3.5.0
 * cluster: 25 jobs (75 runs) where 2.2 runs 50, as a leak per run shows in either and the suite's
 * time is counted (this test took 208 s with 50).
 */
class Hadoop3SlotResourcesTest extends SlotResourcesTest {
    @Override
    List<String> hadoopVersion() {
        return List.of("--hadoop-version", Hadoop3StockClusterTest.VERSION);
    }

    @Override
    int[] groups() {
        return new int[] {5, 5, 15};
    }
}
