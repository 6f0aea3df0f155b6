package org.jvmreuse.pool.slot;

import java.io.IOException;

/**
 * One thing a slot lends each run and takes back after it, as one of its {@link RunSteps}. A
 * step that only checks the run or makes something for later steps, or whose put-back runs
 * elsewhere ({@link SlotContext#runSteps} says where), takes nothing back here.
 */
interface RunStep {
    /** Lends it to the run; a {@link Refused} sends the run to a new JVM. */
    void lend(RunStart run) throws IOException, InterruptedException;

    /**
     * Takes it back; called also when its lend failed part-way. Returns null, or what could not
     * be put back (the slot then retires).
     */
    default String restore(RunEnd end) {
        return null;
    }
}
