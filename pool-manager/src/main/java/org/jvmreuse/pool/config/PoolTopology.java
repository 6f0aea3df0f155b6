package org.jvmreuse.pool.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which MPI ranks form which pool. By default all ranks on one host form that host's pool; with
 * {@code ranksPerPool = K}, each K consecutive ranks do (several pools per host, as when one host
 * plays several nodes). The lowest rank of a pool is its manager, its highest {@code spares}
 * ranks are spares (they take the place of slots that leave: docs/design.md, "Spare ranks"),
 * and the others are its slots.
 */
public record PoolTopology(int poolIndex, String host, int managerRank, List<Integer> slotRanks, boolean sharedHost,
                           List<Integer> spareRanks) {

    /** A pool without spares. */
    public PoolTopology(int poolIndex, String host, int managerRank, List<Integer> slotRanks, boolean sharedHost) {
        this(poolIndex, host, managerRank, slotRanks, sharedHost, List.of());
    }

    public static PoolTopology of(String[] hostOfRank, int rank, int ranksPerPool) {
        return of(hostOfRank, rank, ranksPerPool, 0);
    }

    public static PoolTopology of(String[] hostOfRank, int rank, int ranksPerPool, int spares) {
        List<List<Integer>> pools = pools(hostOfRank, ranksPerPool);
        for (int i = 0; i < pools.size(); i++) {
            List<Integer> members = pools.get(i);
            if (members.contains(rank)) {
                String host = hostOfRank[rank];
                if (members.size() < 2 + spares) {
                    throw new IllegalArgumentException("the pool of rank " + rank + " on host " + host
                            + " has no slot: start at least " + (2 + spares) + " ranks per pool (1 manager + slots"
                            + (spares > 0 ? " + " + spares + " spares)" : ")"));
                }
                for (int r : members) {
                    if (!hostOfRank[r].equals(host)) {
                        throw new IllegalArgumentException("pool " + i + " spans hosts " + host + " and "
                                + hostOfRank[r] + ": --ranks-per-pool must match the ranks placed per node");
                    }
                }
                long poolsOnHost = pools.stream().filter(p -> hostOfRank[p.get(0)].equals(host)).count();
                int firstSpare = members.size() - spares;
                return new PoolTopology(i, host, members.get(0), List.copyOf(members.subList(1, firstSpare)),
                        poolsOnHost > 1, List.copyOf(members.subList(firstSpare, members.size())));
            }
        }
        throw new IllegalArgumentException("rank " + rank + " is outside the world of " + hostOfRank.length);
    }

    /**
     * The managers of the other pools on {@code host}, by pool index: a slot rings them too,
     * since it fetches map outputs from their Shuffle Managers (docs/shuffle.md, "Threads and MPI").
     */
    public static Map<Integer, Integer> otherManagersOn(String[] hostOfRank, int ranksPerPool, String host, int poolIndex) {
        Map<Integer, Integer> managers = new LinkedHashMap<>();
        List<List<Integer>> pools = pools(hostOfRank, ranksPerPool);
        for (int i = 0; i < pools.size(); i++) {
            int manager = pools.get(i).get(0);
            if (i != poolIndex && hostOfRank[manager].equals(host)) {
                managers.put(i, manager);
            }
        }
        return managers;
    }

    /** The ranks of each pool, in pool index order. */
    private static List<List<Integer>> pools(String[] hostOfRank, int ranksPerPool) {
        List<List<Integer>> pools = new ArrayList<>();
        if (ranksPerPool > 0) {
            for (int r = 0; r < hostOfRank.length; r++) {
                if (r % ranksPerPool == 0) {
                    pools.add(new ArrayList<>());
                }
                pools.get(pools.size() - 1).add(r);
            }
        } else {
            Map<String, List<Integer>> byHost = new LinkedHashMap<>();
            for (int r = 0; r < hostOfRank.length; r++) {
                byHost.computeIfAbsent(hostOfRank[r], h -> new ArrayList<>()).add(r);
            }
            pools.addAll(byHost.values());
        }
        return pools;
    }

    public boolean isManager(int rank) {
        return rank == managerRank;
    }

    public boolean isSpare(int rank) {
        return spareRanks.contains(rank);
    }
}
