package org.jvmreuse.pool.slot;

import java.util.Objects;
import org.jvmreuse.boot.ExitInterceptor;
import org.jvmreuse.boot.TaskExit;
import org.jvmreuse.pool.common.PoolLog;
import org.jvmreuse.pool.common.PoolThreads;
import org.jvmreuse.pool.jdk.LiveThreads;

/**
 * Turns {@code System.exit}, {@code Runtime.exit} and {@code Runtime.halt} from any thread that
 * is not the pool's into the end of the run that thread belongs to. A thread an earlier run left
 * behind (it will be stopped, or its slot retires) does not decide the current run's status: its
 * exit only unwinds it. Work the common pool runs is the current run's (what earlier runs left
 * there was stopped or cancelled). The pool's own threads may still exit.
 */
final class ExitTrap implements ExitInterceptor {
    private final RunThreadOwners owners;
    private volatile TaskRun current;

    ExitTrap(RunThreadOwners owners) {
        this.owners = owners;
    }

    void setCurrent(TaskRun run) {
        current = run;
    }

    @Override
    public void onExit(int status, boolean halt) {
        Thread self = Thread.currentThread();
        if (PoolThreads.isPoolThread(self)) {
            return;
        }
        TaskRun run = current;
        Long owner = owners.owner(self);
        if (run != null && (owner == null || owner == run.id() || LiveThreads.isCommonPoolWorker(self))) {
            run.requestEnd(status, !halt);
        } else {
            PoolLog.get().warn("thread \"" + self.getName() + "\" left by run " + Objects.requireNonNullElse(owner, "?")
                    + " called " + (halt ? "halt(" : "exit(") + status + "); it is stopped and no run ends");
        }
        TaskThreads.silence(self); // an exit never returns, so the thread vanishes
        throw new TaskExit(status);
    }
}
