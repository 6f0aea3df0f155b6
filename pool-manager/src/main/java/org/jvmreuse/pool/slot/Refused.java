package org.jvmreuse.pool.slot;

/** A run this slot cannot run as a new JVM would; its message is the client's reason to start one. */
final class Refused extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Refused(String reason) {
        super(reason, null, false, false);
    }
}
