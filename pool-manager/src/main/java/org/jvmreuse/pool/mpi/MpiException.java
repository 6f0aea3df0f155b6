package org.jvmreuse.pool.mpi;

/** An MPI call failed; the message names the call and the library's error string. */
public final class MpiException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public MpiException(String message) {
        super(message);
    }

    public MpiException(String message, Throwable cause) {
        super(message, cause);
    }
}
