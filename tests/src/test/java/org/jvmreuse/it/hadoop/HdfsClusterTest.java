package org.jvmreuse.it.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jvmreuse.it.Pool.Result;
import org.junit.jupiter.api.Test;

/**
 * A pooled cluster with HDFS (jvmreuse-cluster start --pool --hdfs: the cluster engine formats
 * HDFS, starts the NameNode and a DataNode, and is ready once the DataNode is live): wordcount
 * reads its input from HDFS and writes its output there, twice in a row with its tasks in slots,
 * so the second job's tasks use HDFS in slots a first job's tasks used (after the per-task reset
 * of Hadoop's HDFS client state); both outputs are what the test counts itself.
 */
class HdfsClusterTest {
    @Test
    void wordcountOnHdfsTwiceInTheSameSlots() throws Exception {
        try (HadoopCluster cluster = HadoopCluster.start(1, "--pool", "--hdfs", "--slots", "3")) {
            Path text = cluster.newDir("hdfs-text");
            ExampleJobsTest.writeText(text, 2, 800);
            Map<String, Long> expected = JobOutput.wordCounts(text);
            Result put = cluster.hadoop(List.of("fs", "-put", text.toString(), "/text"), 120);
            assertEquals(0, put.code(), "fs -put: " + put);

            for (String out : List.of("/counted-1", "/counted-2")) {
                Job job = cluster.example("wordcount", HadoopCluster.POOLED, "/text", out);
                assertTrue(job.succeeded(), "wordcount into " + out + " failed:\n" + job);
                assertTrue(job.counters().getOrDefault("Task launches/Tasks run in a pool slot", 0L) > 0,
                        "no task of " + out + " ran in a slot: " + job.counters());
                assertTrue(job.counters().getOrDefault("File System Counters/HDFS: Number of bytes read", 0L) > 0,
                        "the input did not come from HDFS: " + job.counters());
                Result cat = cluster.hadoop(List.of("fs", "-cat", out + "/part-r-*"), 120);
                assertEquals(0, cat.code(), "fs -cat: " + cat);
                assertEquals(expected, JobOutput.countedWords(cat.out().lines().toList()), "the words of " + out);
            }
        }
    }
}
