package org.jvmreuse.pool.mpi;

import java.nio.ByteBuffer;

/**
 * The MPI calls a pool process makes, behind one interface: the pool and the MPI shuffle need
 * about fifteen of them. Three backends implement it: {@link NativeMpi} (a small JNI library over
 * the MPI C API, built with the site's {@code mpicc}, so any MPI with a C ABI works), Open MPI's
 * Java bindings ({@code JavaBindingsMpi}, compiled only where {@code mpi.jar} exists) and
 * {@code InProcessMpi} (ranks as threads of one JVM, in the unit tests). {@link MpiBackends} picks
 * one. Only the thread that called {@link #initThread} makes calls (MPI_THREAD_FUNNELED is
 * enough). Buffers passed to sends and receives must be direct; a backend may keep using them
 * until the request completes.
 */
public interface Mpi {
    int THREAD_SINGLE = 0;
    int THREAD_FUNNELED = 1;
    int THREAD_SERIALIZED = 2;
    int THREAD_MULTIPLE = 3;
    /** Wildcards of {@link #iProbe}; backends translate them (MPICH's MPI_ANY_SOURCE is -2). */
    int ANY_SOURCE = -1;
    int ANY_TAG = -1;

    /** A message that can be received now: its sender, tag and length in bytes. */
    record Envelope(int source, int tag, int count) {
    }

    /** A non-blocking send or receive. */
    interface Request {
        /** Whether it has completed; a completed request frees its MPI handle. */
        boolean test();

        /** Waits (polling) until it has completed. */
        default void await() {
            while (!test()) {
                Thread.onSpinWait();
            }
        }
    }

    /** Short name for logs and status: {@code native}, {@code java-bindings} or {@code in-process}. */
    String backend();

    /** The MPI library's own description (the first line of MPI_Get_library_version). */
    String libraryVersion();

    /** Initialises MPI asking for {@code required} (a THREAD_ constant); returns the level granted. */
    int initThread(int required);

    int rank();

    int size();

    /** MPI_Get_processor_name. */
    String processorName();

    /** A collective: every rank's {@code mine}, indexed by rank (lengths may differ). */
    byte[][] allGather(byte[] mine);

    Request iSend(ByteBuffer direct, int count, int dest, int tag);

    Request iRecv(ByteBuffer direct, int count, int source, int tag);

    /** The envelope of a message that matches and can be received now, or {@code null}. */
    Envelope iProbe(int source, int tag);

    /** Blocking receive of {@code count} bytes into {@code direct} from position 0. */
    void recv(ByteBuffer direct, int count, int source, int tag);

    /** Ends every process of the launch (MPI_Abort on MPI_COMM_WORLD). */
    void abort(int code);

    /** MPI_Finalize. */
    void finish();

    /** The name of a thread level. */
    static String threadLevelName(int level) {
        return switch (level) {
            case THREAD_MULTIPLE -> "MULTIPLE";
            case THREAD_SERIALIZED -> "SERIALIZED";
            case THREAD_FUNNELED -> "FUNNELED";
            default -> "SINGLE";
        };
    }
}
