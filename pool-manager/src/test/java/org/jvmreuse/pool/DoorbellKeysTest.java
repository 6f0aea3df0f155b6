package org.jvmreuse.pool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.jvmreuse.pool.config.PoolTopology;
import org.jvmreuse.pool.mpi.Doorbells;
import org.jvmreuse.pool.mpi.InProcessMpi;

/**
 * The ranks learn each other's hosts (MPI_Get_processor_name) and doorbell keys over MPI: a
 * manager admits the doorbell of every slot on its host, its own pool's and another pool's there
 * (they fetch from its Shuffle Manager), and of none on another host.
 */
class DoorbellKeysTest {
    @Test
    void aManagerExpectsTheDoorbellsOfEverySlotOnItsHostAndNoOther() throws Exception {
        String[] hosts = {"h", "h", "h", "h", "g", "g"}; // pools {0,1} and {2,3} on h, {4,5} on g
        List<InProcessMpi> world = InProcessMpi.world(List.of(hosts));
        List<Doorbells> doorbells = new ArrayList<>();
        List<Future<String>> keys = new ArrayList<>();
        ExecutorService ranks = Executors.newFixedThreadPool(hosts.length);
        try {
            for (InProcessMpi mpi : world) {
                Doorbells bells = new Doorbells();
                doorbells.add(bells);
                // Every rank gathers its host as PoolMain does, then exchanges keys.
                keys.add(ranks.submit(() -> {
                    String[] learnt = new String[hosts.length];
                    byte[][] all = mpi.allGather(mpi.processorName().getBytes());
                    for (int r = 0; r < all.length; r++) {
                        learnt[r] = new String(all[r]);
                    }
                    PoolTopology topology = PoolTopology.of(learnt, mpi.rank(), 2);
                    return PoolMain.exchangeDoorbellKeys(mpi, topology, learnt, bells);
                }));
            }
            List<String> key = new ArrayList<>();
            for (Future<String> future : keys) {
                key.add(future.get());
            }
            assertEquals("", key.get(0), "a manager has no key");
            Doorbells manager0 = doorbells.get(0);
            assertFalse(admits(manager0, 5, key.get(5)), "rank 5 is on another host");
            assertFalse(admits(manager0, 3, key.get(1)), "rank 1's key is not rank 3's");
            assertTrue(admits(manager0, 1, key.get(1)), "its own slot");
            assertTrue(admits(manager0, 3, key.get(3)), "a slot of the other pool on its host");
            assertFalse(admits(manager0, 3, key.get(3)), "only once");
            assertTrue(admits(doorbells.get(4), 5, key.get(5)));
            assertFalse(admits(doorbells.get(4), 1, key.get(1)), "rank 1 is on another host");
        } finally {
            ranks.shutdownNow();
            for (Doorbells bells : doorbells) {
                bells.close();
            }
        }
    }

    private static boolean admits(Doorbells doorbells, int rank, String key) throws Exception {
        SocketChannel channel = SocketChannel.open();
        boolean admitted = doorbells.admit(rank, key, channel);
        if (!admitted) {
            channel.close();
        }
        return admitted;
    }
}
