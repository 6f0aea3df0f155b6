package org.jvmreuse.pool.slot;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;
import org.jvmreuse.boot.FirstUseHook;

/**
 * The slot's side of {@link FirstUseHook}: the actions libraries gave with
 * {@code SlotAccess.onFirstUse}, by number, each run once per run, at the first call that the
 * agent put into its classes ({@link PoolAgent#callFirstUse}). Between runs nothing is run. One
 * per JVM, as the hook is; {@link PoolAgent} installs it.
 */
final class FirstUses implements IntConsumer {
    private static final FirstUses INSTANCE = new FirstUses();

    private final Map<Integer, Use> uses = new ConcurrentHashMap<>();
    private final AtomicInteger ids = new AtomicInteger();
    /** A class rewritten again would lose its earlier call: the agent rewrites from the class file. */
    private final Set<Class<?>> rewritten = Collections.synchronizedSet(Collections.newSetFromMap(new WeakHashMap<>()));
    private long runs;
    /** The current run's number; 0 between runs. */
    private volatile long current;

    private FirstUses() {
    }

    static FirstUses get() {
        return INSTANCE;
    }

    /** Rewrites {@code classes} to run {@code action} once per run, before their first use in it; returns its number. */
    int add(List<Class<?>> classes, Runnable action) {
        for (Class<?> c : classes) {
            if (!rewritten.add(c)) {
                throw new IllegalArgumentException(c + " is named for a first-use action already");
            }
        }
        int id = ids.incrementAndGet();
        uses.put(id, new Use(action));
        try {
            PoolAgent.callFirstUse(classes, id);
        } catch (RuntimeException e) {
            uses.remove(id);
            throw e;
        }
        return id;
    }

    /** The library that gave the action is gone: its classes may still call, and nothing runs. */
    void forget(int id) {
        uses.remove(id);
    }

    synchronized void beginRun() {
        current = ++runs;
    }

    void endRun() {
        current = 0;
    }

    @Override
    public void accept(int id) {
        long run = current;
        Use use = run == 0 ? null : uses.get(id);
        if (use != null) {
            use.runOnce(run);
        }
    }

    private static final class Use {
        private final Runnable action;
        /** The run whose action has ended; read without the lock. */
        private volatile long doneIn;
        /** The run whose action began: a call from the action itself goes on. */
        private long startedIn;

        Use(Runnable action) {
            this.action = action;
        }

        void runOnce(long run) {
            if (doneIn == run) {
                return;
            }
            // Other threads wait until the action has run, as for a class initialiser.
            synchronized (this) {
                if (startedIn == run) {
                    return;
                }
                startedIn = run;
                try {
                    action.run();
                } finally {
                    doneIn = run;
                }
            }
        }
    }
}
