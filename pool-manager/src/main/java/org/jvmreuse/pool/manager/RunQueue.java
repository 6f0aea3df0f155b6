package org.jvmreuse.pool.manager;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.jvmreuse.pool.common.PoolThreads;

/**
 * The runs waiting for a slot, first come first served, each with the timer of its wait. Guarded
 * by the manager, whose lock the expiry callback takes.
 */
final class RunQueue implements AutoCloseable {
    private final Deque<PoolRun> runs = new ArrayDeque<>();
    private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor(
            r -> PoolThreads.create("manager-timer", r));

    void add(PoolRun run) {
        runs.add(run);
    }

    /** Starts {@code run}'s wait: {@code expired} is called once it passes, unless the run left the queue first. */
    void startWait(PoolRun run, Consumer<PoolRun> expired) {
        run.waitTimer = timers.schedule(() -> expired.accept(run), run.waitMillis, TimeUnit.MILLISECONDS);
    }

    /** Takes {@code run} out of the queue and stops its wait; whether it was queued. */
    boolean remove(PoolRun run) {
        boolean was = runs.remove(run);
        if (run.waitTimer != null) {
            run.waitTimer.cancel(false);
        }
        return was;
    }

    /**
     * Offers the queued runs in arrival order to {@code launch}, skipping those {@code heldBack}
     * says must wait, until {@code launch} takes none (no slot free); the launched leave the queue.
     */
    void dispatch(Predicate<PoolRun> heldBack, Predicate<PoolRun> launch) {
        for (Iterator<PoolRun> it = runs.iterator(); it.hasNext(); ) {
            PoolRun run = it.next();
            if (heldBack.test(run)) {
                continue;
            }
            if (!launch.test(run)) {
                return;
            }
            it.remove();
            if (run.waitTimer != null) {
                run.waitTimer.cancel(false);
            }
        }
    }

    /** Empties the queue, handing each run (its wait stopped) to {@code each} in arrival order. */
    void removeAll(Consumer<PoolRun> each) {
        while (!runs.isEmpty()) {
            PoolRun run = runs.peek();
            remove(run);
            each.accept(run);
        }
    }

    int size() {
        return runs.size();
    }

    @Override
    public void close() {
        timers.shutdownNow();
    }
}
