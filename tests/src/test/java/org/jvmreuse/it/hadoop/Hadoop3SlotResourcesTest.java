package org.jvmreuse.it.hadoop;

import java.util.List;

/**
 * SlotResourcesTest's check, 25 jobs with their AMs and tasks in three slots, on a Hadoop 3.5.0
 * cluster.
 */
class Hadoop3SlotResourcesTest extends SlotResourcesTest {
    @Override
    List<String> hadoopVersion() {
        return List.of("--hadoop-version", Hadoop3StockClusterTest.VERSION);
    }
}
