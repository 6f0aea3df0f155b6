package org.jvmreuse.it.hadoop;

import java.util.List;

/**
 * IsolationBetweenJobsTest's jobs on a Hadoop 3.5.0 cluster: the same test jobs (compiled against
 * 2.2's stable MapReduce API, which 3.5.0 keeps) and the same checks, through one slot.
 */
class Hadoop3IsolationBetweenJobsTest extends IsolationBetweenJobsTest {
    @Override
    List<String> hadoopVersion() {
        return List.of("--hadoop-version", Hadoop3StockClusterTest.VERSION);
    }
}
