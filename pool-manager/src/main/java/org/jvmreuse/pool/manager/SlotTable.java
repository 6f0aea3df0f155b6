package org.jvmreuse.pool.manager;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jvmreuse.pool.protocol.RunKind;

/**
 * The manager's view of its slots ({@link ManagedSlot}s): the paper's busy-flag array, the reuse
 * policy that picks a slot for a run, and what {@code jvmreuse status} shows. Not thread-safe; the
 * manager guards it.
 */
final class SlotTable {
    enum State { STARTING, FREE, BUSY, RETIRED }

    /** A slot handed to a run; {@code reuse} when it last ran the same class path. */
    record Acquired(int slot, boolean reuse) {
    }

    private final ManagedSlot[] slots;
    /** The slot each rank that left service had, for messages it sent before it went. */
    private final Map<Integer, Integer> formerSlot = new HashMap<>();
    private long uses;
    private int next;

    SlotTable(List<Integer> slotRanks) {
        slots = slotRanks.stream().map(ManagedSlot::new).toArray(ManagedSlot[]::new);
    }

    int size() {
        return slots.length;
    }

    int rank(int slot) {
        return slots[slot].rank();
    }

    State state(int slot) {
        return slots[slot].state();
    }

    long pid(int slot) {
        return slots[slot].pid();
    }

    /** The slot index of an MPI rank, or -1 if the rank is not one of this pool's slots. */
    int slotOfRank(int rank) {
        for (int i = 0; i < slots.length; i++) {
            if (slots[i].rank() == rank) {
                return i;
            }
        }
        return -1;
    }

    void ready(int slot, long processId, String jdk) {
        slots[slot].ready(processId, jdk);
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
        for (int i = 0; i < slots.length; i++) {
            int slot = (next + i) % slots.length;
            if (slots[slot].state() == State.FREE && (chosen < 0 || better(slots[slot], slots[chosen], runKind))) {
                chosen = slot;
            }
        }
        for (int slot = 0; slot < slots.length; slot++) {
            ManagedSlot s = slots[slot];
            if (s.state() == State.FREE && classPathKey.equals(s.lastClassPathKey())
                    && (!classPathKey.equals(slots[chosen].lastClassPathKey()) || s.lastUse() > slots[chosen].lastUse())) {
                chosen = slot;
            }
        }
        if (chosen < 0) {
            return null;
        }
        boolean reuse = slots[chosen].take(classPathKey, runKind, ++uses);
        next = (chosen + 1) % slots.length;
        return new Acquired(chosen, reuse);
    }

    /** Whether free {@code slot} suits a run of {@code runKind} better than {@code chosen}, which comes first round-robin. */
    private static boolean better(ManagedSlot slot, ManagedSlot chosen, RunKind runKind) {
        if (runKind == RunKind.AM) {
            return slot.lastAmUse() > chosen.lastAmUse();
        }
        return slot.lastAmUse() < chosen.lastAmUse();
    }

    void release(int slot) {
        slots[slot].release();
    }

    void retire(int slot, String reason) {
        slots[slot].retire(reason);
    }

    /**
     * Spare {@code rank} takes the place of {@code slot}, which has retired: the slot starts
     * again, as a new JVM (nothing of the old one's runs, class paths or pid carries over).
     */
    void replace(int slot, int rank) {
        formerSlot.put(slots[slot].rank(), slot);
        slots[slot].replaceBy(rank);
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
        slots[slot].formerRetired(rank, reason);
    }

    boolean anyBusy() {
        return count(State.BUSY) > 0;
    }

    boolean anyUsable() {
        return count(State.RETIRED) < slots.length;
    }

    /** How many slots hold a run of {@code wanted} kind (busy from launch until their clean-up ends). */
    int holding(RunKind wanted) {
        int n = 0;
        for (ManagedSlot slot : slots) {
            if (slot.kind() == wanted) {
                n++;
            }
        }
        return n;
    }

    int count(State wanted) {
        int n = 0;
        for (ManagedSlot slot : slots) {
            if (slot.state() == wanted) {
                n++;
            }
        }
        return n;
    }

    List<String> describe() {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < slots.length; i++) {
            lines.add(slots[i].describe(i));
        }
        return lines;
    }

    /** The slots for {@code jvmreuse status --json}: the same facts as {@link #describe}, one object each. */
    List<Json> json() {
        List<Json> list = new ArrayList<>();
        for (int i = 0; i < slots.length; i++) {
            list.add(slots[i].json(i));
        }
        return list;
    }
}
