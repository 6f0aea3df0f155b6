package org.jvmreuse.hadoop.task;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.jvmreuse.hadoop3.task.job.TaskStatics3Seen;
import org.jvmreuse.pool.slot.RunOutcome;

/**
 * On Hadoop 3.x, in a slot in this JVM (HadoopRuns): statics of 3.x that 2.2 had not and that a
 * run sets or ends are not so for the next run (TaskStatics3Seen), as in a new JVM.
 */
class TaskStatics3Test {
    /** FileSystem.Statistics' cleaner thread is the slot's: alive in every run. */
    @Test
    void everyRunHasTheStatisticsCleaner() throws Exception {
        assertEquals("true", HadoopRuns.run(TaskStatics3Seen.class).printed("cleanerAlive"));
        assertEquals("true", HadoopRuns.run(TaskStatics3Seen.class).printed("cleanerAlive"),
                "the cleaner ended with an earlier run");
    }

    /** The global audit context holds the process id only, not the command ("cm") of a Tool an earlier run ran. */
    @Test
    void theAuditContextHasNoEarlierRunsCommand() throws Exception {
        RunOutcome first = HadoopRuns.run(TaskStatics3Seen.class, "set", "0.5", "7");
        assertEquals("[cm, ps]", first.printed("auditKeys"));
        RunOutcome next = HadoopRuns.run(TaskStatics3Seen.class);
        assertEquals("[ps]", next.printed("auditKeys"), "an earlier run's audit context");
        assertEquals("true", next.printed("auditProcess"));
    }

    /** The default SSL socket factory is made by the run that needs it, with its channel mode, as in a new JVM. */
    @Test
    void theDefaultSslSocketFactoryIsNotAnEarlierRuns() throws Exception {
        assertEquals("Default_JSSE", HadoopRuns.run(TaskStatics3Seen.class, "set", "0.5", "7").printed("sslChannelMode"));
        assertEquals("none", HadoopRuns.run(TaskStatics3Seen.class).printed("sslChannelMode"), "an earlier run's factory");
    }

    /** An MRAppMaster's task-progress logging thresholds are its own job's, not the slot's first job's. */
    @Test
    void theProgressLogThresholdsAreTheRunsOwn() throws Exception {
        RunOutcome first = HadoopRuns.run(TaskStatics3Seen.class, "set", "0.5", "7");
        assertEquals("50.0", first.printed("minDelta"));
        assertEquals("7000", first.printed("maxWait"));
        RunOutcome unset = HadoopRuns.run(TaskStatics3Seen.class);
        assertEquals("5.0", unset.printed("minDelta"), "an earlier run's threshold");
        assertEquals("60000", unset.printed("maxWait"), "an earlier run's threshold");
        RunOutcome next = HadoopRuns.run(TaskStatics3Seen.class, "set", "0.25", "3");
        assertEquals("25.0", next.printed("minDelta"));
        assertEquals("3000", next.printed("maxWait"));
    }
}
