package org.jvmreuse.hadoop.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.hadoop.util.ShutdownHookManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jvmreuse.hadoop.task.job.HadoopHooks;

class HadoopShutdownHooksTest {
    @TempDir
    Path dir;

    @Test
    void hooksOfARunRunInPriorityOrderWhenItEndsNormally() throws Exception {
        Path ran = dir.resolve("ran");
        HadoopRuns.run(HadoopHooks.class, ran.toString(), "return");
        assertEquals(List.of("high", "low"), Files.readAllLines(ran));
        assertEquals("false", HadoopRuns.run(HadoopHooks.class, dir.resolve("next").toString(), "return")
                .printed("shutdownInProgress"), "the next run can take hooks");
    }

    @Test
    void hooksOfAHaltedRunAreDroppedUnrun() throws Exception {
        Path halted = dir.resolve("halted");
        HadoopRuns.run(HadoopHooks.class, halted.toString(), "halt");
        assertFalse(Files.exists(halted));
        HadoopRuns.run(HadoopHooks.class, dir.resolve("next").toString(), "return");
        assertFalse(Files.exists(halted), "the halted run's hooks ran at the next run's end");
    }

    @Test
    void hooksRunEvenWhenTheSlotDidNotRunTheRunsJvmHooks() {
        List<String> ran = new CopyOnWriteArrayList<>();
        HadoopShutdownHooks.beforeRun();
        ShutdownHookManager.get().addShutdownHook(() -> ran.add("hook"), 1);
        HadoopShutdownHooks.afterRun(true); // the JVM hook registered by beforeRun never ran
        assertEquals(List.of("hook"), ran);
    }
}
