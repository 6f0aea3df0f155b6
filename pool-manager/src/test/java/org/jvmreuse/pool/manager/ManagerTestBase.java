package org.jvmreuse.pool.manager;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import org.junit.jupiter.api.AfterEach;

/** What the Pool Manager tests share: the harness they start, its clean-up, and starting a run. */
abstract class ManagerTestBase {
    /** How long "nothing happens" is watched for: enough for a message already on its way. */
    static final Duration QUIET = Duration.ofMillis(150);
    static final long LONG_WAIT = 30_000;

    ManagerHarness harness;

    @AfterEach
    void stopHarness() {
        if (harness != null) {
            harness.close();
        }
    }

    /** Starts {@code main} on the slot, which must be free, and checks the client hears of it; the run id. */
    static long startOn(ScriptedSlot slot, ControlClient client, String main) throws Exception {
        long runId = slot.nextLaunch(main);
        slot.started(runId);
        assertEquals(String.valueOf(slot.rank()), client.expect("started").get("rank"));
        return runId;
    }
}
