package org.jvmreuse.pool;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which MPI ranks form which pool. By default all ranks on one host form that host's pool; with
 * {@code ranksPerPool = K}, each K consecutive ranks do (several pools per host, as when one host
 * plays several nodes). The lowest rank of a pool is its manager; the others are its slots.
 */
public record PoolTopology(int poolIndex, String host, int managerRank, List<Integer> slotRanks, boolean sharedHost) {

    public static PoolTopology of(String[] hostOfRank, int rank, int ranksPerPool) {
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
        for (int i = 0; i < pools.size(); i++) {
            List<Integer> members = pools.get(i);
            if (members.contains(rank)) {
                String host = hostOfRank[rank];
                if (members.size() < 2) {
                    throw new IllegalArgumentException("the pool of rank " + rank + " on host " + host
                            + " has no slot: start at least 2 ranks per pool (1 manager + slots)");
                }
                for (int r : members) {
                    if (!hostOfRank[r].equals(host)) {
                        throw new IllegalArgumentException("pool " + i + " spans hosts " + host + " and "
                                + hostOfRank[r] + ": --ranks-per-pool must match the ranks placed per node");
                    }
                }
                long poolsOnHost = pools.stream().filter(p -> hostOfRank[p.get(0)].equals(host)).count();
                return new PoolTopology(i, host, members.get(0), List.copyOf(members.subList(1, members.size())),
                        poolsOnHost > 1);
            }
        }
        throw new IllegalArgumentException("rank " + rank + " is outside the world of " + hostOfRank.length);
    }

    public boolean isManager(int rank) {
        return rank == managerRank;
    }
}
