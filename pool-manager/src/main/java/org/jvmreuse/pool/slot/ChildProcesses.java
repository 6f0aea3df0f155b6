package org.jvmreuse.pool.slot;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadPoolExecutor;
import org.jvmreuse.pool.common.PoolLog;
import org.jvmreuse.pool.jdk.JdkInternals;
import org.jvmreuse.pool.os.Native;

/**
 * The processes a run started (through ProcessBuilder or Runtime.exec, and what those started):
 * the slot's descendants that were not there when the slot was last idle, nor descend from one
 * that was. In a container they would share the task's process group and get the signals YARN
 * sends it; here they are children of the slot, so the slot passes a run's ending signal on to
 * them. A run that ends by itself leaves them running, as a JVM that exits would, unless it was
 * a YARN container's: when a container ends, the NodeManager signals its process group (SIGTERM,
 * then SIGKILL after {@code yarn.nodemanager.sleep-delay-before-sigkill.ms}), so its processes end
 * with it; {@link #endAsContainer} does the same for a pooled task's.
 * <p>
 * The slot is its descendants' subreaper ({@code PR_SET_CHILD_SUBREAPER}, set as it starts): a
 * process whose parent ends (a shell's background job, a daemon's double fork) becomes the
 * slot's child instead of init's, so it stays among the run's processes, as in a container it
 * stays in the task's process group. Such adopted children that exit are reaped by the slot once
 * the run is over (the JDK waits only for the processes it started).
 */
final class ChildProcesses {
    private static final int KILL_ROUNDS = 5;
    /** YARN's default yarn.nodemanager.sleep-delay-before-sigkill.ms. */
    private static final long CONTAINER_SIGKILL_DELAY_MILLIS = 250;
    /**
     * The processes the JDK waits for (its children, among others), by pid; listing descendants
     * reads all of /proc (about half a millisecond here), which runs that started nothing need
     * not pay: the JDK's reaper pool counts one task per process started.
     */
    private final Map<?, ?> awaited = (Map<?, ?>) JdkInternals.get(
            JdkInternals.field("java.lang.ProcessHandleImpl", "completions"), null);
    private final ThreadPoolExecutor reapers = (ThreadPoolExecutor) JdkInternals.get(
            JdkInternals.field("java.lang.ProcessHandleImpl", "processReaperExecutor"), null);
    private Set<ProcessHandle> idle = descendants();
    private long startedWhenIdle = reapers.getTaskCount();

    ChildProcesses() {
        if (!Native.becomeSubreaper()) {
            PoolLog.get().warn("cannot become the subreaper of this slot's processes: a run's process whose parent"
                    + " ends leaves the run's processes and outlives a YARN task's end");
        }
    }

    /** The slot's current descendants are not the next run's (called when the slot is idle). */
    void markIdle() {
        if (!idle.isEmpty() || !awaited.isEmpty() || reapers.getTaskCount() != startedWhenIdle) {
            reapAdopted();
            idle = descendants();
            startedWhenIdle = reapers.getTaskCount();
        }
    }

    /** Children the slot adopted (not the JDK's own) that have exited: reaped, or they stay zombies. */
    private void reapAdopted() {
        ProcessHandle.current().children().forEach(child -> {
            if (!awaited.containsKey(child.pid())) {
                Native.reap(child.pid());
            }
        });
    }

    /** Sends {@code signal} to every process of the run; SIGKILL again until none is left (children fork). */
    void signal(int signal) {
        for (int round = 0; round < (signal == 9 ? KILL_ROUNDS : 1); round++) {
            List<ProcessHandle> started = started();
            if (started.isEmpty()) {
                return;
            }
            for (ProcessHandle p : started) {
                if (signal == 9) {
                    p.destroyForcibly();
                } else {
                    Native.kill(p.pid(), signal);
                }
            }
        }
    }

    /** What the NodeManager does to an ended container's process group: SIGTERM, a grace period, SIGKILL. */
    void endAsContainer() throws InterruptedException {
        if (awaited.isEmpty() && reapers.getTaskCount() == startedWhenIdle) {
            return; // the run started no process
        }
        signal(15);
        long deadline = System.currentTimeMillis() + CONTAINER_SIGKILL_DELAY_MILLIS;
        while (!started().isEmpty()) {
            if (System.currentTimeMillis() >= deadline) {
                signal(9);
                return;
            }
            Thread.sleep(10);
        }
    }

    List<ProcessHandle> started() {
        List<ProcessHandle> started = new ArrayList<>();
        for (ProcessHandle p : descendants()) {
            if (!descendsFromIdle(p)) {
                started.add(p);
            }
        }
        return started;
    }

    private boolean descendsFromIdle(ProcessHandle p) {
        long self = ProcessHandle.current().pid();
        Optional<ProcessHandle> at = Optional.of(p);
        while (at.isPresent() && at.get().pid() != self) {
            if (idle.contains(at.get())) {
                return true;
            }
            at = at.get().parent();
        }
        return false;
    }

    private static Set<ProcessHandle> descendants() {
        Set<ProcessHandle> all = new HashSet<>();
        ProcessHandle.current().descendants().forEach(all::add);
        return all;
    }
}
