package org.jvmreuse.pool.slot;

import org.jvmreuse.boot.ExitInterceptor;
import org.jvmreuse.boot.TaskExit;
import org.jvmreuse.pool.PoolThreads;

/**
 * Turns {@code System.exit}, {@code Runtime.exit} and {@code Runtime.halt} from any thread that
 * is not the pool's into the end of the current run. The pool's own threads may still exit.
 */
final class ExitTrap implements ExitInterceptor {
    private volatile TaskRun current;

    void setCurrent(TaskRun run) {
        current = run;
    }

    @Override
    public void onExit(int status, boolean halt) {
        if (PoolThreads.isPoolThread(Thread.currentThread())) {
            return;
        }
        TaskRun run = current;
        if (run != null) {
            run.requestEnd(status, !halt);
        }
        throw new TaskExit(status);
    }
}
