package org.jvmreuse.hadoop.task;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.jvmreuse.hadoop3.task.job.DfsReadPoolsUser;
import org.jvmreuse.pool.slot.RunOutcome;

/**
 * On Hadoop 3.x, in a slot in this JVM (HadoopRuns): DFSClient's JVM-wide read pools and hedged
 * read count a run left (with a worker each still alive when it ended) are not the next run's,
 * which makes pools of its own sizes and counts from 0, as in a new JVM; the slot serves on.
 */
class DfsClientReadPools3Test {
    @Test
    void theNextRunMakesItsOwnReadPoolsAndCountsItsOwnHedgedReads() throws Exception {
        RunOutcome first = HadoopRuns.run(DfsReadPoolsUser.class, "3", "use");
        assertEquals("3", first.printed("striped"));
        assertEquals("3", first.printed("hedged"));
        assertEquals("1", first.printed("hedgedReads"));
        RunOutcome seen = HadoopRuns.run(DfsReadPoolsUser.class);
        assertEquals("0", seen.printed("striped"), "a pool of an earlier run");
        assertEquals("0", seen.printed("hedged"), "a pool of an earlier run");
        assertEquals("0", seen.printed("hedgedReads"));
        RunOutcome next = HadoopRuns.run(DfsReadPoolsUser.class, "5");
        assertEquals("5", next.printed("striped"));
        assertEquals("5", next.printed("hedged"));
    }
}
