package org.jvmreuse.pool.common;

/**
 * How a pool process treats a {@code Throwable} that reached one of its message loops. A fault
 * stays where it happened (docs/design.md, "Faults stay where they happen"): the message or run
 * that met it fails, and only an error that may have left this JVM unfit to serve makes its
 * slot retire. A small heap block is kept in reserve and let go at the first
 * {@code OutOfMemoryError}, so that logging and the retire path can still allocate; while a run's
 * program runs, it is kept for the end of that run ({@link #hold}).
 */
public final class Faults {
    private static final int RESERVE_BYTES = 1 << 20;
    private static volatile byte[] reserve = new byte[RESERVE_BYTES];
    private static volatile boolean held;

    private Faults() {
    }

    /**
     * Whether {@code fault} may have left this JVM damaged: out of memory (heap, direct memory,
     * threads), a stack overflow or internal error in the JVM or pool code, or a class that could
     * not be linked. A slot that saw one retires; any other throwable only fails its message.
     */
    public static boolean damaging(Throwable fault) {
        return fault instanceof VirtualMachineError || fault instanceof LinkageError;
    }

    /** Called on catching {@code fault}: an {@code OutOfMemoryError} lets the reserve go, unless it is held. */
    public static void caught(Throwable fault) {
        if (fault instanceof OutOfMemoryError && !held) {
            reserve = null;
        }
    }

    /**
     * Holds the reserve while a run's program runs: an out-of-memory error then is most likely
     * the run's, and the block let go would only feed the run (it takes the block at once), so
     * that nothing would be left to end the run with: print its error, end its threads, send its
     * exit status. Only {@link #spend} lets it go meanwhile.
     */
    public static void hold(boolean hold) {
        held = hold;
    }

    /** Lets the reserve go, held or not: the end of a run that left the heap full needs it now. */
    public static void spend() {
        reserve = null;
    }

    /** Takes the reserve back after an out-of-memory error; false if the heap cannot spare it. */
    public static boolean rearm() {
        if (reserve == null) {
            try {
                reserve = new byte[RESERVE_BYTES];
            } catch (OutOfMemoryError stillFull) {
                return false;
            }
        }
        return true;
    }
}
