package org.jvmreuse.hadoop.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.hadoop.util.ShutdownHookManager;
import org.junit.jupiter.api.Test;

class HadoopShutdownHooksTest {
    @Test
    void hooksOfARunRunInPriorityOrderWhenItEndsNormally() throws Exception {
        List<String> ran = new CopyOnWriteArrayList<>();
        new SlotRun(new RunLoader()).run(true, () -> {
            ShutdownHookManager.get().addShutdownHook(() -> ran.add("low"), 1);
            ShutdownHookManager.get().addShutdownHook(() -> ran.add("high"), 100);
            return null;
        });
        assertEquals(List.of("high", "low"), ran);
        assertCanTakeHooks();
    }

    @Test
    void hooksOfAHaltedRunAreDroppedUnrun() throws Exception {
        List<String> ran = new CopyOnWriteArrayList<>();
        Runnable hook = () -> ran.add("hook");
        new SlotRun(new RunLoader()).run(false, () -> {
            ShutdownHookManager.get().addShutdownHook(hook, 1);
            return null;
        });
        assertEquals(List.of(), ran);
        assertFalse(ShutdownHookManager.get().hasShutdownHook(hook));
        assertCanTakeHooks();
    }

    @Test
    void hooksRunEvenWhenTheSlotDidNotRunTheRunsJvmHooks() {
        List<String> ran = new CopyOnWriteArrayList<>();
        HadoopTaskReset hooks = new HadoopTaskReset();
        hooks.beforeRun((name, value) -> { });
        ShutdownHookManager.get().addShutdownHook(() -> ran.add("hook"), 1);
        hooks.afterRun(true); // the JVM hook registered by beforeRun never ran
        assertEquals(List.of("hook"), ran);
    }

    private static void assertCanTakeHooks() {
        assertFalse(ShutdownHookManager.get().isShutdownInProgress());
        Runnable later = () -> { };
        ShutdownHookManager.get().addShutdownHook(later, 1);
        assertTrue(ShutdownHookManager.get().removeShutdownHook(later));
    }
}
