package org.jvmreuse.pool.manager;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * The spare ranks of a pool that wait to take the place of a slot that leaves service, lowest
 * rank first, and how many have taken one. A spare that dies or cannot start before it is
 * needed is dropped. Not thread-safe; the manager guards it.
 */
final class SpareRanks {
    private final Deque<Integer> waiting;
    private int promoted;

    SpareRanks(List<Integer> ranks) {
        waiting = new ArrayDeque<>(ranks);
    }

    boolean contains(int rank) {
        return waiting.contains(rank);
    }

    /** The next spare to promote, or -1 when none is left. */
    int promote() {
        Integer rank = waiting.poll();
        if (rank == null) {
            return -1;
        }
        promoted++;
        return rank;
    }

    /** Drops a spare that left before it was needed; false if {@code rank} is no waiting spare. */
    boolean drop(int rank) {
        return waiting.remove(rank);
    }

    int left() {
        return waiting.size();
    }

    int promoted() {
        return promoted;
    }

    List<Integer> ranks() {
        return List.copyOf(waiting);
    }
}
