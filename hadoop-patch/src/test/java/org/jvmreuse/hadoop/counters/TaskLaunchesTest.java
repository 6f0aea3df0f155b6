package org.jvmreuse.hadoop.counters;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.apache.hadoop.mapred.Counters;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The counters a task reports: 1 for the path it took, 0 for the other, with their display names. */
class TaskLaunchesTest {
    @AfterEach
    void outOfSlot() {
        TaskLaunches.inSlot(false);
    }

    @Test
    void aTaskOutsideASlotIsStock() {
        Counters counters = new Counters();
        TaskLaunchCounting.count(counters);
        assertEquals(1, counters.findCounter(TaskLaunches.STOCK_TASKS).getValue());
        assertEquals(0, counters.findCounter(TaskLaunches.POOLED_TASKS).getValue());
        assertEquals("Task launches", counters.getGroup(TaskLaunches.class.getName()).getDisplayName());
        assertEquals("Tasks run in a new JVM", counters.findCounter(TaskLaunches.STOCK_TASKS).getDisplayName());
        assertEquals("Tasks run in a pool slot", counters.findCounter(TaskLaunches.POOLED_TASKS).getDisplayName());
    }

    @Test
    void aRunInASlotIsPooledAndCountsOnceHoweverOftenItReports() {
        Counters counters = new Counters();
        TaskLaunches.inSlot(true);
        TaskLaunchCounting.count(counters);
        TaskLaunchCounting.count(counters);
        assertEquals(1, counters.findCounter(TaskLaunches.POOLED_TASKS).getValue());
        assertEquals(0, counters.findCounter(TaskLaunches.STOCK_TASKS).getValue());
    }
}
