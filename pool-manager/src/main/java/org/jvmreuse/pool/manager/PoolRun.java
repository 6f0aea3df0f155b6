package org.jvmreuse.pool.manager;

import java.util.concurrent.ScheduledFuture;
import org.jvmreuse.pool.protocol.JavaCommandLine;
import org.jvmreuse.pool.protocol.RunSpec;

/** One run request on its way from a client connection through a slot. Guarded by the manager. */
final class PoolRun {
    enum State { QUEUED, RUNNING, FINISHED }

    /**
     * SIGQUITs closer together than this give one thread dump: the slot starts a thread per
     * dump, and a flood must cost neither MPI traffic nor threads.
     */
    static final long QUIT_COALESCE_NANOS = 200_000_000;

    final long id;
    final RunSpec spec;
    /** Its {@code java} command line as read (spec holds what a slot takes of it; admission checks the rest). */
    final JavaCommandLine command;
    final String classPathKey;
    final long waitMillis;
    final ClientSession client;
    final long receivedNanos = System.nanoTime();
    State state = State.QUEUED;
    int slot = -1;
    boolean reuse;
    /** Whether its slot reported STARTED (the client has been told). */
    boolean started;
    ScheduledFuture<?> waitTimer;
    private long lastQuit = receivedNanos - QUIT_COALESCE_NANOS;
    /** The signals other than SIGQUIT forwarded to the slot so far, one bit each. */
    private int forwarded;

    PoolRun(long id, RunSpec spec, JavaCommandLine command, String classPathKey, long waitMillis, ClientSession client) {
        this.id = id;
        this.spec = spec;
        this.command = command;
        this.classPathKey = classPathKey;
        this.waitMillis = waitMillis;
        this.client = client;
    }

    /**
     * Whether {@code signal} goes on to the slot: a SIGQUIT that starts a new burst, any other
     * signal the first time (the slot ends a run on the first of 1/2/15, and once on 9), so that
     * a flood costs neither MPI traffic nor slot threads.
     */
    boolean signalDue(int signal) {
        if (signal == 3) {
            return quitDue();
        }
        boolean first = (forwarded & (1 << signal)) == 0;
        forwarded |= 1 << signal;
        return first;
    }

    /** Whether a SIGQUIT now starts a new burst (and so is forwarded); notes it if so. */
    private boolean quitDue() {
        long now = System.nanoTime();
        if (now - lastQuit < QUIT_COALESCE_NANOS) {
            return false;
        }
        lastQuit = now;
        return true;
    }
}
