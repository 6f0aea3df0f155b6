package org.jvmreuse.hadoop.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jvmreuse.hadoop.task.job.Getenv;
import org.jvmreuse.hadoop.task.job.RegistryJob;
import org.jvmreuse.hadoop.task.job.WordCount;
import org.jvmreuse.hadoop.task.job.YarnChildLike;
import org.jvmreuse.pool.slot.RunOutcome;

/** Whole task-like runs: what one leaves behind neither reaches the next nor keeps its loader. */
class RunIsolationTest {
    private static final long GC_WAIT_MILLIS = 20_000;

    @TempDir
    Path dir;

    @Test
    void setsJvmPidToThisProcess() throws Exception {
        assertEquals(Long.toString(ProcessHandle.current().pid()), HadoopRuns.run(Getenv.class, "JVM_PID").printed("value"));
    }

    @Test
    void aRunThatFilledHadoopsRegistriesLeavesNothingOfItsLoader() throws Exception {
        RunOutcome first = registryJob();
        RunOutcome second = registryJob();
        assertEquals("org.apache.hadoop.io.Text$Comparator", second.printed("textComparator"), "Hadoop's own registration");
        assertTrue(first.loaderCollectedWithin(GC_WAIT_MILLIS), "the first run's class loader is still reachable");
    }

    @Test
    void aHaltedRunLeavesNothingOfItsLoaderEither() throws Exception {
        RunOutcome halted = HadoopRuns.run(HadoopRuns.of(RegistryJob.class, "halt").property("job.dir", dir.toString()));
        assertTrue(halted.loaderCollectedWithin(GC_WAIT_MILLIS), "the run's class loader is still reachable");
    }

    @Test
    void aYarnChildThatExitedWithoutCleaningUpLeavesNothingOfItsLoader() throws Exception {
        for (int i = 0; i < 2; i++) { // the second run must not find the first one's metrics, proxy, UGI
            RunOutcome outcome = HadoopRuns.run(YarnChildLike.class);
            assertEquals("container_1_0001_01_000002", outcome.printed("container"));
            assertEquals("true", outcome.printed("umbilical"));
            assertTrue(outcome.loaderCollectedWithin(GC_WAIT_MILLIS), "the run's class loader is still reachable");
        }
    }

    @Test
    void consecutiveMapReduceJobsCountOnlyTheirOwnWorkAndAreCollected() throws Exception {
        Files.createDirectories(dir.resolve("in"));
        Files.writeString(dir.resolve("in/words.txt"), "a b a c b a\n".repeat(100));
        RunOutcome first = wordCount();
        RunOutcome second = wordCount();
        assertEquals(100, counter(first, "mapInputRecords"));
        assertEquals(3, counter(first, "reduceOutputRecords"));
        assertEquals(counter(first, "fileBytesRead"), counter(second, "fileBytesRead"));
        // LocalJobRunner's job ids hold a random number of varying length, which the files it writes
        // repeat (seen: 1% apart); counters carried over from the first job would double the second's.
        long written = counter(first, "fileBytesWritten");
        assertEquals(written, counter(second, "fileBytesWritten"), written / 10.0, "file bytes written");
        assertEquals(100, counter(second, "mapInputRecords"));
        assertEquals(3, counter(second, "reduceOutputRecords"));
    }

    private RunOutcome registryJob() throws Exception {
        RunOutcome outcome = HadoopRuns.run(HadoopRuns.of(RegistryJob.class).property("job.dir", dir.toString()));
        assertEquals("org.jvmreuse.hadoop.task.job.JobKey=one", outcome.printed("read"));
        return outcome;
    }

    private RunOutcome wordCount() throws Exception {
        RunOutcome outcome = HadoopRuns.run(HadoopRuns.of(WordCount.class).property("job.dir", dir.toString()));
        assertTrue(outcome.loaderCollectedWithin(GC_WAIT_MILLIS), "the run's class loader is still reachable");
        return outcome;
    }

    private static long counter(RunOutcome outcome, String name) {
        return Long.parseLong(outcome.printed(name));
    }
}
