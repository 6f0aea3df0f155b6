package org.jvmreuse.pool.slot;

import org.jvmreuse.pool.common.Faults;
import org.jvmreuse.pool.mpi.MpiTransport;
import org.jvmreuse.pool.mpi.Tags;
import org.jvmreuse.pool.mpi.Wire;

/** Tells the slot's manager that a run started (STARTED) and how it ended (DONE). */
final class RunReport {
    /** For the slot's warm-up runs, which the manager does not hear of. */
    static final RunReport NONE = new RunReport(null, -1);

    private final MpiTransport transport;
    private final int managerRank;

    RunReport(MpiTransport transport, int managerRank) {
        this.transport = transport;
        this.managerRank = managerRank;
    }

    boolean toManager() {
        return transport != null;
    }

    /** Returns once MPI has the message: should the slot die after it, the manager knows the run started. */
    void started(long runId) throws InterruptedException {
        if (transport != null) {
            transport.sendAndAwait(managerRank, Tags.STARTED, Wire.ints(runId));
        }
    }

    /**
     * {@code failure}: why the pool could not run it (null if it ran). DONE is what the client
     * waits for: an out-of-memory error making it (a run left the heap full) lets the reserve go
     * and it is made again.
     */
    void done(long runId, int exitCode, boolean started, String failure) {
        if (transport == null) {
            return;
        }
        String text = failure == null ? "" : failure;
        try {
            transport.send(managerRank, Tags.DONE, Wire.intFlagAndText(runId, exitCode, started, text));
        } catch (OutOfMemoryError e) {
            Faults.caught(e);
            transport.send(managerRank, Tags.DONE, Wire.intFlagAndText(runId, exitCode, started, text));
        }
    }
}
