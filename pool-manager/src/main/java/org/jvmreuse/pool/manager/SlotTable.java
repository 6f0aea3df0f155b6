package org.jvmreuse.pool.manager;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The manager's view of its slots: the paper's busy-flag array plus what the reuse policy and
 * {@code jvmreuse status} need. Not thread-safe; the manager guards it.
 */
final class SlotTable {
    enum State { STARTING, FREE, BUSY, RETIRED }

    /** A slot handed to a run; {@code reuse} when it last ran the same class path. */
    record Acquired(int slot, boolean reuse) {
    }

    private final int[] ranks;
    private final State[] state;
    private final String[] lastClassPathKey;
    private final long[] pid;
    private final int[] runs;
    private final int[] reuseHits;
    private final String[] note;
    private final long[] lastUse;
    private long uses;
    private int next;

    SlotTable(List<Integer> slotRanks) {
        int n = slotRanks.size();
        ranks = slotRanks.stream().mapToInt(Integer::intValue).toArray();
        state = new State[n];
        Arrays.fill(state, State.STARTING);
        lastClassPathKey = new String[n];
        pid = new long[n];
        runs = new int[n];
        reuseHits = new int[n];
        note = new String[n];
        lastUse = new long[n];
    }

    int size() {
        return ranks.length;
    }

    int rank(int slot) {
        return ranks[slot];
    }

    State state(int slot) {
        return state[slot];
    }

    long pid(int slot) {
        return pid[slot];
    }

    /** The slot index of an MPI rank, or -1 if the rank is not one of this pool's slots. */
    int slotOfRank(int rank) {
        for (int i = 0; i < ranks.length; i++) {
            if (ranks[i] == rank) {
                return i;
            }
        }
        return -1;
    }

    void ready(int slot, long processId, String jdk) {
        pid[slot] = processId;
        note[slot] = "Java " + jdk;
        if (state[slot] == State.STARTING) {
            state[slot] = State.FREE;
        }
    }

    /**
     * Picks a free slot and marks it busy. A free slot whose last run had the same class path
     * wins (the most recently used of them: its caches and JIT profile are the warmest);
     * otherwise the next free slot round-robin from the last pick. Null when none is free.
     */
    Acquired acquire(String classPathKey) {
        int chosen = -1;
        for (int i = 0; i < ranks.length; i++) {
            int slot = (next + i) % ranks.length;
            if (state[slot] == State.FREE && chosen < 0) {
                chosen = slot;
            }
        }
        for (int slot = 0; slot < ranks.length; slot++) {
            if (state[slot] == State.FREE && classPathKey.equals(lastClassPathKey[slot])
                    && (!classPathKey.equals(lastClassPathKey[chosen]) || lastUse[slot] > lastUse[chosen])) {
                chosen = slot;
            }
        }
        if (chosen < 0) {
            return null;
        }
        boolean reuse = classPathKey.equals(lastClassPathKey[chosen]);
        state[chosen] = State.BUSY;
        runs[chosen]++;
        if (reuse) {
            reuseHits[chosen]++;
        }
        lastClassPathKey[chosen] = classPathKey;
        lastUse[chosen] = ++uses;
        next = (chosen + 1) % ranks.length;
        return new Acquired(chosen, reuse);
    }

    void release(int slot) {
        if (state[slot] == State.BUSY) {
            state[slot] = State.FREE;
        }
    }

    void retire(int slot, String reason) {
        state[slot] = State.RETIRED;
        note[slot] = "retired: " + reason;
    }

    boolean anyBusy() {
        for (State s : state) {
            if (s == State.BUSY) {
                return true;
            }
        }
        return false;
    }

    boolean anyUsable() {
        for (State s : state) {
            if (s != State.RETIRED) {
                return true;
            }
        }
        return false;
    }

    int count(State wanted) {
        int n = 0;
        for (State s : state) {
            if (s == wanted) {
                n++;
            }
        }
        return n;
    }

    List<String> describe() {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < ranks.length; i++) {
            lines.add(String.format("slot %d: rank %d pid %d %s busy=%d runs=%d reuse_hits=%d (%s)", i, ranks[i],
                    pid[i], state[i].name().toLowerCase(), state[i] == State.BUSY ? 1 : 0, runs[i], reuseHits[i],
                    note[i] == null ? "-" : note[i]));
        }
        return lines;
    }
}
