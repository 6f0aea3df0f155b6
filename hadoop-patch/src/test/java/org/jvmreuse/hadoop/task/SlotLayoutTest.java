package org.jvmreuse.hadoop.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jvmreuse.boot.RunHook;
import org.jvmreuse.hadoop.task.job.WordCount;
import org.jvmreuse.hadoop.task.job.YarnChildLike;
import org.jvmreuse.pool.slot.RunOutcome;

/**
 * The slot's layout: Hadoop and this module in a shared loader of their own (parent: the platform
 * loader), whose one run hook is this module's task reset; runs of different kinds in turn over it.
 */
class SlotLayoutTest {
    @Test
    void theSharedLoaderHoldsHadoopAndTheTaskResetAsItsRunHook() throws Exception {
        ClassLoader shared = HadoopRuns.sharedClass("org.apache.hadoop.conf.Configuration").getClassLoader();
        assertSame(ClassLoader.getPlatformClassLoader(), shared.getParent());
        List<Class<? extends RunHook>> hooks = ServiceLoader.load(RunHook.class, shared).stream()
                .map(ServiceLoader.Provider::type).toList();
        assertEquals(1, hooks.size(), "the run hooks: " + hooks);
        assertEquals(HadoopTaskReset.class.getName(), hooks.get(0).getName());
        assertSame(shared, hooks.get(0).getClassLoader());
    }

    @Test
    void tasksAndJobsInTurnAreResetAndCollected(@TempDir Path dir) throws Exception {
        Files.createDirectories(dir.resolve("in"));
        Files.writeString(dir.resolve("in/words.txt"), "x y x\n".repeat(10));
        for (Class<?> program : List.of(YarnChildLike.class, WordCount.class, YarnChildLike.class, WordCount.class)) {
            RunOutcome outcome = HadoopRuns.run(HadoopRuns.of(program).property("job.dir", dir.toString()));
            if (program == WordCount.class) {
                assertEquals("10", outcome.printed("mapInputRecords"));
            } else {
                assertEquals("container_1_0001_01_000002", outcome.printed("container"));
            }
            assertTrue(outcome.loaderCollectedWithin(20_000), "the run's class loader is still reachable after " + program);
        }
    }
}
