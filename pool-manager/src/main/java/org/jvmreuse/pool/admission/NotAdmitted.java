package org.jvmreuse.pool.admission;

/** Why a run must start in a new JVM rather than in a slot: its message says so to the user. */
public final class NotAdmitted extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public NotAdmitted(String reason) {
        super(reason, null, false, false);
    }
}
