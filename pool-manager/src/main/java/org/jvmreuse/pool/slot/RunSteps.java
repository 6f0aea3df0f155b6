package org.jvmreuse.pool.slot;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A run's steps ({@link SlotContext#runSteps}): lent in order, taken back in reverse. Only the
 * steps whose lend began are taken back, the one that failed included, as it may have lent part.
 */
final class RunSteps {
    private final List<RunStep> steps;
    /** How many steps' lend began. */
    private int begun;

    RunSteps(List<RunStep> steps) {
        this.steps = List.copyOf(steps);
    }

    /** Lends every step in order; the first that fails ends the lending. */
    void lend(RunStart run) throws IOException, InterruptedException {
        while (begun < steps.size()) {
            steps.get(begun++).lend(run);
        }
    }

    /** Takes back, last first, every step whose lend began; returns what could not be put back. */
    List<String> restore(RunEnd end) {
        List<String> problems = new ArrayList<>();
        while (begun > 0) {
            String problem = steps.get(--begun).restore(end);
            if (problem != null) {
                problems.add(problem);
            }
        }
        return problems;
    }
}
