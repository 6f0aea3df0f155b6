package org.jvmreuse.pool.slot;

import org.jvmreuse.boot.ExitInterceptor;
import org.jvmreuse.pool.common.PoolThreads;
import org.jvmreuse.pool.jdk.LiveThreads;

/**
 * The exit interceptor of an {@link InProcessSlot}: the slot's own ({@link ExitTrap}), except that
 * the test JVM's own threads (surefire's, JUnit's), which a pool JVM does not have, exit the JVM
 * as usual. Those are the threads outside the slot's thread group that are neither the pool's nor
 * any run's, nor common-pool workers or virtual threads (which may do a run's work).
 */
final class TestThreadExits implements ExitInterceptor {
    private final ThreadGroup slotGroup;
    private final SlotContext slot;
    private final VirtualThreads virtualThreads = new VirtualThreads();

    TestThreadExits(ThreadGroup slotGroup, SlotContext slot) {
        this.slotGroup = slotGroup;
        this.slot = slot;
    }

    @Override
    public void onExit(int status, boolean halt) {
        Thread self = Thread.currentThread();
        if (!isTestThread(self)) {
            slot.exitTrap.onExit(status, halt);
        }
    }

    private boolean isTestThread(Thread t) {
        ThreadGroup group = t.getThreadGroup();
        return group != null && !slotGroup.parentOf(group) && !PoolThreads.isPoolThread(t) && slot.owners.owner(t) == null
                && !LiveThreads.isCommonPoolWorker(t) && !virtualThreads.isVirtual(t);
    }
}
