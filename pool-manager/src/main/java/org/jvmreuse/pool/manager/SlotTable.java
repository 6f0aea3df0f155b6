package org.jvmreuse.pool.manager;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jvmreuse.pool.protocol.RunKind;

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
    /** Per slot: the kind of the run it holds while busy (until its clean-up ends), else null. */
    private final RunKind[] kind;
    private final long[] pid;
    private final int[] runs;
    private final int[] reuseHits;
    private final String[] note;
    /** Per slot: the JDK it reported when ready, and why it retired (null while in service). */
    private final String[] jdk;
    private final String[] retiredReason;
    private final long[] lastUse;
    /** Per slot: when it last took an application master ({@link #uses} count; 0: never). */
    private final long[] lastAmUse;
    /** Per slot: how many spares took its place, and the last rank it replaced and why that left. */
    private final int[] replacements;
    private final String[] replaced;
    /** The slot each rank that left service had, for messages it sent before it went. */
    private final Map<Integer, Integer> formerSlot = new HashMap<>();
    private long uses;
    private int next;

    SlotTable(List<Integer> slotRanks) {
        int n = slotRanks.size();
        ranks = slotRanks.stream().mapToInt(Integer::intValue).toArray();
        state = new State[n];
        Arrays.fill(state, State.STARTING);
        lastClassPathKey = new String[n];
        kind = new RunKind[n];
        pid = new long[n];
        runs = new int[n];
        reuseHits = new int[n];
        note = new String[n];
        jdk = new String[n];
        retiredReason = new String[n];
        lastUse = new long[n];
        lastAmUse = new long[n];
        replacements = new int[n];
        replaced = new String[n];
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
        this.jdk[slot] = jdk;
        if (state[slot] == State.STARTING) {
            state[slot] = State.FREE;
        }
    }

    /**
     * Picks a free slot and marks it busy with a run of {@code runKind}. A free slot whose last
     * run had the same class path wins (the most recently used of them: its caches and JIT
     * profile are the warmest). Otherwise an application master takes the free slot that took
     * one most recently (an AM's web app, RPC servers and classes are loaded and compiled there:
     * a slot's first AM starts about half a second later), and a task the next free slot
     * round-robin from the last pick, one that never took an AM if there is one (else the one
     * that took its last AM longest ago), so that AMs find theirs free. Null when none is free.
     */
    Acquired acquire(String classPathKey, RunKind runKind) {
        int chosen = -1;
        for (int i = 0; i < ranks.length; i++) {
            int slot = (next + i) % ranks.length;
            if (state[slot] == State.FREE && (chosen < 0 || better(slot, chosen, runKind))) {
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
        kind[chosen] = runKind;
        runs[chosen]++;
        if (reuse) {
            reuseHits[chosen]++;
        }
        lastClassPathKey[chosen] = classPathKey;
        lastUse[chosen] = ++uses;
        if (runKind == RunKind.AM) {
            lastAmUse[chosen] = uses;
        }
        next = (chosen + 1) % ranks.length;
        return new Acquired(chosen, reuse);
    }

    /** Whether free {@code slot} suits a run of {@code runKind} better than {@code chosen}, which comes first round-robin. */
    private boolean better(int slot, int chosen, RunKind runKind) {
        if (runKind == RunKind.AM) {
            return lastAmUse[slot] > lastAmUse[chosen];
        }
        return lastAmUse[slot] < lastAmUse[chosen];
    }

    void release(int slot) {
        if (state[slot] == State.BUSY) {
            state[slot] = State.FREE;
            kind[slot] = null;
        }
    }

    void retire(int slot, String reason) {
        state[slot] = State.RETIRED;
        kind[slot] = null;
        note[slot] = "retired: " + reason;
        retiredReason[slot] = reason;
    }

    /**
     * Spare {@code rank} takes the place of {@code slot}, which has retired: the slot starts
     * again, as a new JVM (nothing of the old one's runs, class paths or pid carries over).
     */
    void replace(int slot, int rank) {
        formerSlot.put(ranks[slot], slot);
        replaced[slot] = "in place of rank " + ranks[slot] + ", which " + note[slot];
        replacements[slot]++;
        ranks[slot] = rank;
        state[slot] = State.STARTING;
        pid[slot] = 0;
        runs[slot] = 0;
        reuseHits[slot] = 0;
        lastClassPathKey[slot] = null;
        jdk[slot] = null;
        retiredReason[slot] = null;
        note[slot] = "spare, warming up";
    }

    /**
     * The slot a rank that was replaced had, or -1: a RETIRE it sent can arrive after its
     * doorbell closed, and then says why it left.
     */
    int formerSlotOfRank(int rank) {
        return formerSlot.getOrDefault(rank, -1);
    }

    /** Why the rank that {@code slot} replaced left, when it said so after its doorbell closed. */
    void formerRetired(int slot, int rank, String reason) {
        if (replaced[slot] != null && replaced[slot].startsWith("in place of rank " + rank + ",")) {
            replaced[slot] = "in place of rank " + rank + ", which retired: " + reason;
        }
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

    /** How many slots hold a run of {@code wanted} kind (busy from launch until their clean-up ends). */
    int holding(RunKind wanted) {
        int n = 0;
        for (RunKind k : kind) {
            if (k == wanted) {
                n++;
            }
        }
        return n;
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
            String history = replaced[i] == null ? ""
                    : String.format("; replacement %d, %s", replacements[i], replaced[i]);
            lines.add(String.format("slot %d: rank %d pid %d %s busy=%d runs=%d reuse_hits=%d%s (%s%s)", i, ranks[i],
                    pid[i], state[i].name().toLowerCase(), state[i] == State.BUSY ? 1 : 0, runs[i], reuseHits[i],
                    kind[i] == null ? "" : " kind=" + kind[i].wireName(), note[i] == null ? "-" : note[i], history));
        }
        return lines;
    }

    /** The slots for {@code jvmreuse status --json}: the same facts as {@link #describe}, one object each. */
    List<Json> json() {
        List<Json> list = new ArrayList<>();
        for (int i = 0; i < ranks.length; i++) {
            list.add(new Json().put("slot", i).put("rank", ranks[i]).put("pid", pid[i])
                    .put("state", state[i].name().toLowerCase()).put("runs", runs[i]).put("reuse_hits", reuseHits[i])
                    .put("jdk", jdk[i]).put("retired_reason", retiredReason[i]).put("replacements", replacements[i])
                    .put("replaced", replaced[i]).put("kind", kind[i] == null ? null : kind[i].wireName()));
        }
        return list;
    }
}
