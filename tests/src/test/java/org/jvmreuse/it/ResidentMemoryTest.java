package org.jvmreuse.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A slot whose resident memory stays well above its idle size after a run (native memory the
 * run left allocated) retires, and its spare takes its place; memory a run gave back, or a
 * little left behind, does not retire it.
 */
class ResidentMemoryTest {
    @Test
    void aSlotThatKeepsARunsNativeMemoryRetiresAndItsSpareServes() throws Exception {
        try (Pool pool = Pool.start(1, Jdks.DEFAULT, "", Map.of("JVMREUSE_SPARES", "1", "JVMREUSE_WARMUP_RUNS", "20",
                "JVMREUSE_RSS_MARGIN_MB", "128"))) {
            Pool.Result freed = pool.program("NativeHog", "400", "free");
            assertEquals("took 400 MiB, free\n", freed.out(), freed.toString());
            Pool.Result little = pool.program("NativeHog", "32", "keep");
            assertEquals("took 32 MiB, keep\n", little.out(), little.toString());
            assertTrue(pool.status().contains("replacements: 0 made"), "the slot serves on: " + pool.status());

            Pool.Result kept = pool.program("NativeHog", "400", "keep");
            assertEquals(0, kept.code(), kept.toString());
            assertTrue(kept.err().contains("running in slot 0"), kept.err());
            pool.awaitStatus("replacements: 1 made", 15_000);
            assertTrue(pool.status().contains("a run left memory outside the heap"), pool.status());
            pool.awaitStatus("slots: 1 (free 1, busy 0, starting 0, retired 0)", 60_000);
            Pool.Result next = pool.program("NativeHog", "1", "free");
            assertTrue(next.err().contains("running in slot 0"), "the replacement serves: " + next.err());
        }
    }
}
