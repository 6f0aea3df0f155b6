package org.jvmreuse.pool.slot;

import org.jvmreuse.boot.TaskExit;

/**
 * The thread group of runs' main threads (threads they start inherit it). A thread unwound by
 * {@link TaskExit} (an intercepted exit, or the end of its run) dies quietly, as it would have
 * vanished with the JVM; any other uncaught exception is reported as usual.
 */
final class TaskThreadGroup extends ThreadGroup {
    TaskThreadGroup(ThreadGroup parent) {
        super(parent, "main");
    }

    @Override
    public void uncaughtException(Thread t, Throwable e) {
        if (!(e instanceof TaskExit)) {
            super.uncaughtException(t, e);
        }
    }
}
