package org.jvmreuse.it;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** Test classes sharing one pool with a single slot, so each run lands in the JVM of the run before. */
abstract class OneSlotPoolTest {
    static Pool pool;

    @BeforeAll
    static void startPool() throws Exception {
        pool = Pool.start(1);
    }

    @AfterAll
    static void stopPool() throws Exception {
        pool.close();
    }
}
