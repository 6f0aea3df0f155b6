package org.jvmreuse.pool.mpi;

/** MPI tags of the messages between a Pool Manager and its slots (see docs/protocol.md). */
public final class Tags {
    /** slot to manager: pid, then what it was started with (admission.SlotProfile). */
    public static final int HELLO = 1;
    /** manager to slot: run id, then the encoded RunSpec. */
    public static final int LAUNCH = 2;
    /** manager to slot: run id, signal number. */
    public static final int SIGNAL = 3;
    /** slot to manager: run id; the run's stdio, environment and directory are in place. */
    public static final int STARTED = 4;
    /**
     * slot to manager: run id, exit code, whether the run got as far as STARTED, a message for the
     * user ("" if none); output is flushed and closed.
     */
    public static final int DONE = 5;
    /** slot to manager: clean-up finished, the slot can take the next run. */
    public static final int FREE = 6;
    /** slot to manager: clean-up failed (reason); the slot leaves service. */
    public static final int RETIRE = 7;
    /** manager to slot: leave the MPI loop. */
    public static final int SHUTDOWN = 8;
    /**
     * any rank to any rank: a message of a service (the MPI shuffle's requests and data); the
     * pool only carries it (see docs/protocol.md, "Services").
     */
    public static final int SERVICE = 9;
    /** manager to spare: the index of the slot whose place it takes; it warms up, then sends HELLO. */
    public static final int PROMOTE = 10;
    /**
     * manager to slot: run id; its client's start deadline passed. A run that has not reached
     * STARTED ends as not started (DONE), and never starts; a started one goes on.
     */
    public static final int CANCEL = 11;

    private Tags() {
    }
}
