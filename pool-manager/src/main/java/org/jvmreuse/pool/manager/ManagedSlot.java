package org.jvmreuse.pool.manager;

import org.jvmreuse.pool.manager.SlotTable.State;
import org.jvmreuse.pool.protocol.RunKind;

/**
 * One slot as its manager sees it: the rank that serves it now, its state and the run it holds,
 * and what the reuse policy and {@code jvmreuse status} need of its history. Not thread-safe;
 * the manager guards it (through {@link SlotTable}).
 */
final class ManagedSlot {
    private int rank;
    private State state = State.STARTING;
    private String lastClassPathKey;
    /** The kind of the run it holds while busy (until its clean-up ends), else null. */
    private RunKind kind;
    private long pid;
    private int runs;
    private int reuseHits;
    private String note;
    /** The JDK it reported when ready, and why it retired (null while in service). */
    private String jdk;
    private String retiredReason;
    /** When it last took a run, and an application master (in the table's count of uses; 0: never). */
    private long lastUse;
    private long lastAmUse;
    /** How many spares took its place, and the last rank it replaced and why that left. */
    private int replacements;
    private String replaced;

    ManagedSlot(int rank) {
        this.rank = rank;
    }

    int rank() {
        return rank;
    }

    State state() {
        return state;
    }

    long pid() {
        return pid;
    }

    RunKind kind() {
        return kind;
    }

    String lastClassPathKey() {
        return lastClassPathKey;
    }

    long lastUse() {
        return lastUse;
    }

    long lastAmUse() {
        return lastAmUse;
    }

    void ready(long processId, String reportedJdk) {
        pid = processId;
        note = "Java " + reportedJdk;
        jdk = reportedJdk;
        if (state == State.STARTING) {
            state = State.FREE;
        }
    }

    /** Takes a run of {@code runKind} on {@code classPathKey}, as use number {@code use}; whether it is a reuse hit. */
    boolean take(String classPathKey, RunKind runKind, long use) {
        boolean reuse = classPathKey.equals(lastClassPathKey);
        state = State.BUSY;
        kind = runKind;
        runs++;
        if (reuse) {
            reuseHits++;
        }
        lastClassPathKey = classPathKey;
        lastUse = use;
        if (runKind == RunKind.AM) {
            lastAmUse = use;
        }
        return reuse;
    }

    void release() {
        if (state == State.BUSY) {
            state = State.FREE;
            kind = null;
        }
    }

    void retire(String reason) {
        state = State.RETIRED;
        kind = null;
        note = "retired: " + reason;
        retiredReason = reason;
    }

    /** A spare's {@code newRank} takes this place, as a new JVM: nothing of the old one's runs, class paths or pid carries over. */
    void replaceBy(int newRank) {
        replaced = "in place of rank " + rank + ", which " + note;
        replacements++;
        rank = newRank;
        state = State.STARTING;
        pid = 0;
        runs = 0;
        reuseHits = 0;
        lastClassPathKey = null;
        jdk = null;
        retiredReason = null;
        note = "spare, warming up";
    }

    /** Why {@code formerRank}, which this slot replaced, left, when it said so after its doorbell closed. */
    void formerRetired(int formerRank, String reason) {
        if (replaced != null && replaced.startsWith("in place of rank " + formerRank + ",")) {
            replaced = "in place of rank " + formerRank + ", which retired: " + reason;
        }
    }

    String describe(int index) {
        String history = replaced == null ? "" : String.format("; replacement %d, %s", replacements, replaced);
        return String.format("slot %d: rank %d pid %d %s busy=%d runs=%d reuse_hits=%d%s (%s%s)", index, rank, pid,
                state.name().toLowerCase(), state == State.BUSY ? 1 : 0, runs, reuseHits,
                kind == null ? "" : " kind=" + kind.wireName(), note == null ? "-" : note, history);
    }

    Json json(int index) {
        return new Json().put("slot", index).put("rank", rank).put("pid", pid).put("state", state.name().toLowerCase())
                .put("runs", runs).put("reuse_hits", reuseHits).put("jdk", jdk).put("retired_reason", retiredReason)
                .put("replacements", replacements).put("replaced", replaced).put("kind", kind == null ? null : kind.wireName());
    }
}
