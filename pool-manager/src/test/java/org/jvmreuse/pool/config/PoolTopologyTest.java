package org.jvmreuse.pool.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PoolTopologyTest {
    private static final String[] TWO_NODES = {"n1", "n1", "n1", "n2", "n2", "n2"};

    @Test
    void oneHostOnePoolLowestRankManages() {
        PoolTopology slot = PoolTopology.of(TWO_NODES, 4, 0);
        assertEquals(1, slot.poolIndex());
        assertEquals("n2", slot.host());
        assertEquals(3, slot.managerRank());
        assertEquals(List.of(4, 5), slot.slotRanks());
        assertFalse(slot.isManager(4));
        assertFalse(slot.sharedHost());
        assertTrue(PoolTopology.of(TWO_NODES, 0, 0).isManager(0));
    }

    @Test
    void blocksOfRanksMakeSeveralPoolsOnOneHost() {
        String[] oneHost = {"h", "h", "h", "h"};
        PoolTopology second = PoolTopology.of(oneHost, 3, 2);
        assertEquals(1, second.poolIndex());
        assertEquals(2, second.managerRank());
        assertEquals(List.of(3), second.slotRanks());
        assertTrue(second.sharedHost());
    }

    @Test
    void aPoolKnowsTheManagersOfTheOtherPoolsOnItsHost() {
        String[] hosts = {"h", "h", "h", "h", "g", "g", "h", "h"};
        assertEquals(Map.of(1, 2, 3, 6), PoolTopology.otherManagersOn(hosts, 2, "h", 0));
        assertEquals(Map.of(0, 0, 1, 2), PoolTopology.otherManagersOn(hosts, 2, "h", 3));
        assertEquals(Map.of(), PoolTopology.otherManagersOn(hosts, 2, "g", 2));
        assertEquals(Map.of(), PoolTopology.otherManagersOn(TWO_NODES, 0, "n1", 0), "one pool per host");
    }

    @Test
    void theLastRanksOfAPoolAreItsSpares() {
        PoolTopology first = PoolTopology.of(TWO_NODES, 2, 0, 1);
        assertEquals(List.of(1), first.slotRanks());
        assertEquals(List.of(2), first.spareRanks());
        assertTrue(first.isSpare(2));
        assertFalse(first.isSpare(1));
        String[] oneHost = {"h", "h", "h", "h", "h", "h", "h", "h"};
        PoolTopology second = PoolTopology.of(oneHost, 5, 4, 2);
        assertEquals(4, second.managerRank());
        assertEquals(List.of(5), second.slotRanks());
        assertEquals(List.of(6, 7), second.spareRanks());
        assertEquals("the pool of rank 0 on host n1 has no slot: start at least 4 ranks per pool (1 manager + slots + 2 spares)",
                assertThrows(IllegalArgumentException.class, () -> PoolTopology.of(TWO_NODES, 0, 0, 2)).getMessage());
    }

    @Test
    void namesImpossibleLayouts() {
        assertEquals("the pool of rank 0 on host n1 has no slot: start at least 2 ranks per pool (1 manager + slots)",
                assertThrows(IllegalArgumentException.class, () -> PoolTopology.of(new String[] {"n1", "n2"}, 0, 0))
                        .getMessage());
        assertEquals("pool 1 spans hosts n1 and n2: --ranks-per-pool must match the ranks placed per node",
                assertThrows(IllegalArgumentException.class, () -> PoolTopology.of(TWO_NODES, 2, 2)).getMessage());
    }
}
