package org.jvmreuse.pool.slot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A run's steps are lent in order and taken back in reverse, as far as their lending got. */
class RunStepsTest {
    private static final RunStart START = new RunStart(null, null);
    private static final RunEnd END = new RunEnd(1, null, null, true);
    private final List<String> calls = new ArrayList<>();

    /** A step that records its calls, cannot put back {@code unrestorable} (if not null), and refuses if {@code refuses}. */
    private RunStep step(String name, String unrestorable, boolean refuses) {
        return new RunStep() {
            @Override
            public void lend(RunStart run) {
                calls.add("lend " + name);
                if (refuses) {
                    throw new Refused(name + " refused");
                }
            }

            @Override
            public String restore(RunEnd end) {
                calls.add("restore " + name);
                return unrestorable;
            }
        };
    }

    private RunStep step(String name, String unrestorable) {
        return step(name, unrestorable, false);
    }

    @Test
    void lentInOrderTakenBackInReverse() throws Exception {
        RunSteps steps = new RunSteps(List.of(step("a", null), step("b", null), step("c", null)));
        steps.lend(START);
        assertEquals(List.of(), steps.restore(END));
        assertEquals(List.of("lend a", "lend b", "lend c", "restore c", "restore b", "restore a"), calls);
    }

    @Test
    void aStepThatFailsEndsTheLendingAndTheStepsThatBeganAreTakenBack() {
        RunSteps steps = new RunSteps(List.of(step("a", null), step("b", null, true), step("c", null)));
        assertEquals("b refused", assertThrows(Refused.class, () -> steps.lend(START)).getMessage());
        assertEquals(List.of(), steps.restore(END));
        // b may have lent part of itself before it failed
        assertEquals(List.of("lend a", "lend b", "restore b", "restore a"), calls);
    }

    @Test
    void whatCannotBePutBackIsCollected() throws Exception {
        RunSteps steps = new RunSteps(List.of(step("a", "a stays"), step("b", null), step("c", "c stays")));
        steps.lend(START);
        assertEquals(List.of("c stays", "a stays"), steps.restore(END));
    }
}
