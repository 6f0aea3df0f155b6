package org.jvmreuse.pool.manager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.jvmreuse.pool.protocol.RunKind;

class SlotTableTest {
    private static SlotTable readyTable(int n) {
        SlotTable table = new SlotTable(java.util.stream.IntStream.rangeClosed(1, n).boxed().toList());
        for (int i = 0; i < n; i++) {
            table.ready(i, 100 + i, "17");
        }
        return table;
    }

    @Test
    void startingSlotsAreNotHandedOut() {
        SlotTable table = new SlotTable(List.of(1, 2));
        assertNull(table.acquire("k", RunKind.TASK));
        table.ready(1, 42, "17");
        assertEquals(1, table.acquire("k", RunKind.TASK).slot());
    }

    @Test
    void roundRobinAcrossDifferentPrograms() {
        SlotTable table = readyTable(3);
        assertEquals(0, table.acquire("a", RunKind.TASK).slot());
        assertEquals(1, table.acquire("b", RunKind.TASK).slot());
        table.release(0);
        assertEquals(2, table.acquire("c", RunKind.TASK).slot());
        assertEquals(0, table.acquire("d", RunKind.TASK).slot());
        assertNull(table.acquire("e", RunKind.TASK), "every slot busy");
    }

    @Test
    void theSameClassPathGoesBackToTheSlotThatRanItMostRecently() {
        SlotTable table = readyTable(3);
        assertEquals(0, table.acquire("hadoop", RunKind.TASK).slot());
        assertEquals(1, table.acquire("hadoop", RunKind.TASK).slot());
        table.release(0);
        table.release(1);
        SlotTable.Acquired again = table.acquire("hadoop", RunKind.TASK);
        assertEquals(1, again.slot(), "most recently used of the matching slots");
        assertTrue(again.reuse());
        SlotTable.Acquired other = table.acquire("other", RunKind.TASK);
        assertFalse(other.reuse());
        assertEquals(2, other.slot(), "round-robin continues after the last pick");
    }

    @Test
    void applicationMastersGoBackToSlotsThatRanOneAndTasksLeaveThoseFree() {
        SlotTable table = readyTable(4);
        assertEquals(0, table.acquire("am1", RunKind.AM).slot(), "no slot ran an AM: round-robin");
        assertEquals(1, table.acquire("t1", RunKind.TASK).slot());
        assertEquals(2, table.acquire("am2", RunKind.AM).slot());
        table.release(0);
        table.release(1);
        table.release(2);
        assertEquals(3, table.acquire("t2", RunKind.TASK).slot(), "round-robin, past the slots that ran AMs");
        assertEquals(1, table.acquire("t3", RunKind.TASK).slot(), "the other slot that never ran an AM");
        assertEquals(0, table.acquire("t4", RunKind.TASK).slot(), "every such slot busy: one that ran an AM");
        assertEquals(2, table.acquire("am3", RunKind.AM).slot(), "the slot that took an AM last");
        table.release(0);
        table.release(2);
        assertEquals(2, table.acquire("am4", RunKind.AM).slot(), "the most recent AM's slot again");
    }

    @Test
    void retiredSlotsLeaveService() {
        SlotTable table = readyTable(2);
        table.retire(0, "a thread would not stop");
        assertTrue(table.anyUsable());
        assertEquals(1, table.acquire("k", RunKind.TASK).slot());
        assertNull(table.acquire("k", RunKind.TASK));
        table.retire(1, "died");
        assertFalse(table.anyUsable());
        assertTrue(table.describe().get(0).contains("retired: a thread would not stop"), table.describe().toString());
    }

    @Test
    void theJsonFormHasEachSlotsStateAndRetireReasonEscaped() {
        SlotTable table = readyTable(2);
        table.acquire("k", RunKind.AM);
        table.retire(1, "thread \"t\\1\" would not stop\nafter 10 s");
        assertEquals(List.of("{\"slot\":0,\"rank\":1,\"pid\":100,\"state\":\"busy\",\"runs\":1,\"reuse_hits\":0,\"jdk\":\"17\","
                + "\"retired_reason\":null,\"replacements\":0,\"replaced\":null,\"kind\":\"am\"}",
                "{\"slot\":1,\"rank\":2,\"pid\":101,\"state\":\"retired\",\"runs\":0,\"reuse_hits\":0,\"jdk\":\"17\","
                + "\"retired_reason\":\"thread \\\"t\\\\1\\\" would not stop\\nafter 10 s\",\"replacements\":0,\"replaced\":null,\"kind\":null}"),
                table.json().stream().map(Json::toString).toList());
        table.replace(1, 3);
        assertEquals("{\"slot\":1,\"rank\":3,\"pid\":0,\"state\":\"starting\",\"runs\":0,\"reuse_hits\":0,\"jdk\":null,"
                + "\"retired_reason\":null,\"replacements\":1,\"replaced\":\"in place of rank 2, which retired: thread \\\"t\\\\1\\\""
                + " would not stop\\nafter 10 s\",\"kind\":null}", table.json().get(1).toString());
    }

    @Test
    void aSlotHoldsItsRunsKindUntilItsCleanUpEnds() {
        SlotTable table = readyTable(3);
        int am = table.acquire("k", RunKind.AM).slot();
        int task = table.acquire("k", RunKind.TASK).slot();
        int secondAm = table.acquire("k", RunKind.AM).slot();
        assertEquals(2, table.holding(RunKind.AM));
        assertEquals(1, table.holding(RunKind.TASK));
        assertTrue(table.describe().get(am).contains(" reuse_hits=0 kind=am ("), table.describe().toString());
        assertTrue(table.describe().get(task).contains(" kind=task ("), table.describe().toString());
        table.release(am);
        table.retire(secondAm, "died");
        assertEquals(0, table.holding(RunKind.AM), "a released or retired slot holds no run");
        assertFalse(table.describe().get(am).contains("kind="), table.describe().toString());
        assertEquals(1, table.holding(RunKind.TASK));
    }
}
