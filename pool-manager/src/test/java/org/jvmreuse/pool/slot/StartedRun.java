package org.jvmreuse.pool.slot;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/** A run handed to an {@link InProcessSlot}: it can be signalled, as its client forwards signals, until it ends. */
public final class StartedRun {
    private final long id;
    private final InProcessManager manager;
    private final Future<RunOutcome> outcome;

    StartedRun(long id, InProcessManager manager, Future<RunOutcome> outcome) {
        this.id = id;
        this.manager = manager;
        this.outcome = outcome;
    }

    /** Sends the run a signal through its manager: 15 ends it after its shutdown hooks, 9 at once, 3 dumps its threads. */
    public void signal(int signal) {
        manager.signal(id, signal);
    }

    /** Waits for the run's end and the slot's clean-up after it. */
    public RunOutcome await() throws Exception {
        try {
            return outcome.get();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }
}
