package org.jvmreuse.pool.slot;

import java.lang.reflect.Field;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.function.Consumer;
import org.jvmreuse.pool.common.PoolThreads;
import org.jvmreuse.pool.jdk.JdkInternals;
import org.jvmreuse.pool.jdk.LiveThreads;

/**
 * Which run each platform thread belongs to, decided as it starts (the agent makes
 * {@code Thread.start} call {@link #accept} on the starting thread): a thread that a run's thread
 * starts while the run is active is that run's, whatever its thread group, daemon flag or thread
 * locals, so a run cannot leave a thread behind by starting it in the system group without
 * inheriting anything. A run's threads are its main thread, the threads they start, the other
 * threads of the slot's thread group (a shared library's run hook starts them), and any
 * common-pool worker or virtual thread while it runs the run's work. Not the run's: threads the
 * pool's code starts (pool threads start them, or made them), threads a shared library made for
 * the slot ({@link #forSlot}, through its run hooks' attach), and threads that JDK threads start
 * for JDK-wide objects (a channel group's handler threads, which its own threads replace), as
 * well as those objects' own threads whoever starts them: common-pool workers, the JDK's system
 * threads ({@code jdk.internal.misc.InnocuousThread}: the process reaper from JDK 18, the
 * keep-alive timer, cleaners), the virtual-thread scheduler's carriers, and JDK 17's process
 * reapers.
 */
final class RunThreadOwners implements Consumer<Thread> {
    private static final long NO_RUN = -1;
    private static final Long SLOT = Long.MIN_VALUE;
    private static final Class<?> INNOCUOUS = jdkClass("jdk.internal.misc.InnocuousThread");
    private static final Class<?> CARRIER = jdkClass("jdk.internal.misc.CarrierThread");

    private final Map<Thread, Long> owners = Collections.synchronizedMap(new WeakHashMap<>());
    private final ProcessReapers reapers = new ProcessReapers();
    private final VirtualThreads virtualThreads = new VirtualThreads();
    private final ThreadGroup applicationGroup;
    private volatile long activeRun = NO_RUN;

    /** {@code applicationGroup}: the slot's group, under which runs' threads live (pool threads do too). */
    RunThreadOwners(ThreadGroup applicationGroup) {
        this.applicationGroup = applicationGroup;
    }

    private static Class<?> jdkClass(String name) {
        try {
            return Class.forName(name, false, null);
        } catch (ClassNotFoundException e) {
            return null; // CarrierThread: JDK 21+
        }
    }

    @Override
    public void accept(Thread started) {
        long run = activeRun;
        Thread starter = Thread.currentThread();
        if (run != NO_RUN && !PoolThreads.isPoolThread(started) && !isJdkWide(started) && isRuns(starter, run)) {
            owners.putIfAbsent(started, run);
        }
    }

    /** Whether {@code t}, starting a thread now, does run {@code run}'s work. */
    private boolean isRuns(Thread t, long run) {
        Long owner = owners.get(t);
        if (owner != null) {
            return owner == run;
        }
        ThreadGroup group = t.getThreadGroup();
        return !PoolThreads.isPoolThread(t) && (LiveThreads.isCommonPoolWorker(t) || virtualThreads.isVirtual(t)
                || (group != null && applicationGroup.parentOf(group)));
    }

    private boolean isJdkWide(Thread t) {
        return LiveThreads.isCommonPoolWorker(t) || (INNOCUOUS != null && INNOCUOUS.isInstance(t))
                || (CARRIER != null && CARRIER.isInstance(t)) || reapers.isReaper(t);
    }

    /** Run {@code runId} starts with {@code main}: the threads started from now on are its. */
    void begin(long runId, Thread main) {
        owners.put(main, runId);
        activeRun = runId;
    }

    /** The run's threads have been ended: threads started from now on are nobody's. */
    void end() {
        activeRun = NO_RUN;
    }

    /** A thread a shared library made to outlive runs (a worker of a pool it keeps in a static). */
    void forSlot(Thread t) {
        owners.put(t, SLOT);
    }

    boolean isForSlot(Thread t) {
        return SLOT.equals(owners.get(t));
    }

    /** The run {@code t} belongs to, or null (the slot's, a JDK-wide object's, or started outside runs). */
    Long owner(Thread t) {
        Long owner = owners.get(t);
        return SLOT.equals(owner) ? null : owner;
    }

    /**
     * JDK 17's process reapers: plain threads of the JDK's reaper executor, in the system group
     * (from JDK 18 they are InnocuousThreads). Told apart by what they run, a worker of that
     * executor, not by name, which a run can copy.
     */
    private static final class ProcessReapers {
        private final Field target;
        private final Field workerOwner;
        private final Object executor;

        ProcessReapers() {
            boolean jdk17 = Runtime.version().feature() < 18;
            target = jdk17 ? JdkInternals.field("java.lang.Thread", "target") : null;
            workerOwner = jdk17 ? JdkInternals.field("java.util.concurrent.ThreadPoolExecutor$Worker", "this$0") : null;
            executor = jdk17 ? JdkInternals.get(JdkInternals.field("java.lang.ProcessHandleImpl", "processReaperExecutor"), null)
                    : null;
        }

        boolean isReaper(Thread t) {
            if (executor == null) {
                return false;
            }
            Object runnable = JdkInternals.get(target, t);
            return runnable != null && workerOwner.getDeclaringClass().isInstance(runnable)
                    && JdkInternals.get(workerOwner, runnable) == executor;
        }
    }
}
