package org.jvmreuse.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** A slot that dies takes down neither the pool nor mpirun; its run ends with a message. */
class SlotFailureTest {
    @Test
    void killedSlotIsRetiredAndThePoolServesOn() throws Exception {
        try (Pool pool = Pool.start(2)) {
            pool.killSlotUnderARun();
            assertTrue(pool.mpirunAlive(), "mpirun must survive a dead slot");
            for (int i = 0; i < 5; i++) {
                Pool.Result next = pool.program("StaticCounter");
                assertEquals("1\n", next.out(), next.toString());
                assertTrue(next.err().contains("running in slot"), next.err());
            }
        }
    }
}
