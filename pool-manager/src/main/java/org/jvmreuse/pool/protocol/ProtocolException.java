package org.jvmreuse.pool.protocol;

/** A request that breaks the control protocol; its message is sent back to the client. */
public final class ProtocolException extends Exception {
    private static final long serialVersionUID = 1L;

    public ProtocolException(String message) {
        super(message);
    }
}
