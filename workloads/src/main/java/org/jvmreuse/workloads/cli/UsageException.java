package org.jvmreuse.workloads.cli;

/** A command line that cannot run: Main prints the message and the command's usage, exit status 2. */
public final class UsageException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public UsageException(String message) {
        super(message);
    }
}
