package org.jvmreuse.boot;

/**
 * Thrown in a task thread in place of exiting the JVM, and used to stop task threads that
 * outlive their run. An {@link Error}, so ordinary {@code catch (Exception e)} blocks let it pass.
 */
public final class TaskExit extends Error {
    private static final long serialVersionUID = 1L;

    private final int status;

    public TaskExit(int status) {
        super("task ended with exit status " + status, null, false, false);
        this.status = status;
    }

    public int status() {
        return status;
    }
}
