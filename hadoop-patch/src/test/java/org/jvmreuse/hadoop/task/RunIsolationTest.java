package org.jvmreuse.hadoop.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.ref.WeakReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.WritableComparator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Whole task-like runs: what one leaves behind neither reaches the next nor keeps its loader. */
class RunIsolationTest {
    private static final long GC_WAIT_MILLIS = 20_000;
    private final Properties saved = (Properties) System.getProperties().clone();

    @TempDir
    Path dir;

    @BeforeEach
    void jobDir() {
        System.setProperty("job.dir", dir.toString());
    }

    @AfterEach
    void restoreProperties() {
        System.setProperties(saved);
    }

    @Test
    void setsJvmPidToThisProcess() throws Exception {
        SlotRun run = new SlotRun(new RunLoader());
        String seen = run.run(true, () -> System.getenv("JVM_PID"));
        assertEquals(Long.toString(ProcessHandle.current().pid()), seen);
        assertEquals(seen, run.env.get("JVM_PID"));
    }

    @Test
    void aRunThatFilledHadoopsRegistriesLeavesNothingOfItsLoader() throws Exception {
        WritableComparator textComparator = WritableComparator.get(Text.class);
        WeakReference<ClassLoader> loader = runJob("RegistryJob", true);
        assertSame(textComparator, WritableComparator.get(Text.class), "Hadoop's own registration is back");
        assertTrue(Collected.within(loader, GC_WAIT_MILLIS), "the run's class loader is still reachable");
    }

    @Test
    void aHaltedRunLeavesNothingOfItsLoaderEither() throws Exception {
        assertTrue(Collected.within(runJob("RegistryJob", false), GC_WAIT_MILLIS),
                "the run's class loader is still reachable");
    }

    @Test
    void aYarnChildThatExitedWithoutCleaningUpLeavesNothingOfItsLoader() throws Exception {
        for (int i = 0; i < 2; i++) { // the second run must not find the first one's metrics, proxy, UGI
            RunLoader loader = new RunLoader();
            Object result = new SlotRun(loader).run(true, loader.newJob("YarnChildLike"));
            assertEquals("container_1_0001_01_000002 true", result);
            WeakReference<ClassLoader> ref = new WeakReference<>(loader);
            loader = null;
            assertTrue(Collected.within(ref, GC_WAIT_MILLIS), "the run's class loader is still reachable");
        }
    }

    @Test
    void consecutiveMapReduceJobsCountOnlyTheirOwnWorkAndAreCollected() throws Exception {
        Files.createDirectories(dir.resolve("in"));
        Files.writeString(dir.resolve("in/words.txt"), "a b a c b a\n".repeat(100));
        long[] first = wordCount();
        long[] second = wordCount();
        assertEquals(100, first[2], "map input records");
        assertEquals(3, first[3], "reduce output records");
        assertEquals(first[0], second[0], "file bytes read");
        // LocalJobRunner's job ids hold a random number of varying length, which the files it writes
        // repeat (seen: 1% apart); counters carried over from the first job would double the second's.
        assertEquals(first[1], second[1], first[1] / 10.0, "file bytes written");
        assertEquals(first[2], second[2], "map input records");
        assertEquals(first[3], second[3], "reduce output records");
    }

    private long[] wordCount() throws Exception {
        RunLoader loader = new RunLoader();
        long[] counters = (long[]) new SlotRun(loader).run(true, loader.newJob("WordCount"));
        WeakReference<ClassLoader> ref = new WeakReference<>(loader);
        loader = null;
        assertTrue(Collected.within(ref, GC_WAIT_MILLIS), "the run's class loader is still reachable");
        return counters;
    }

    /** Runs a job class in a run of its own and returns a weak reference to the run's loader. */
    private static WeakReference<ClassLoader> runJob(String job, boolean exitHooks) throws Exception {
        RunLoader loader = new RunLoader();
        Object result = new SlotRun(loader).run(exitHooks, loader.newJob(job));
        assertEquals("org.jvmreuse.hadoop.task.job.JobKey=one", result);
        return new WeakReference<>(loader);
    }
}
