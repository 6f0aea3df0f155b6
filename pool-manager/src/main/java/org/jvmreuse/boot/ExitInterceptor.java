package org.jvmreuse.boot;

/** Decides whether an exit request ends the JVM or only the task that made it. */
public interface ExitInterceptor {
    /** Return to let the JVM exit, or throw {@link TaskExit} to unwind the calling task thread. */
    void onExit(int status, boolean halt);
}
