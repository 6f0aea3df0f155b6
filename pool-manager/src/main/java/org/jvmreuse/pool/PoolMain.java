package org.jvmreuse.pool;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jvmreuse.pool.common.Faults;
import org.jvmreuse.pool.common.PoolLog;
import org.jvmreuse.pool.common.PoolThreads;
import org.jvmreuse.pool.config.PoolOptions;
import org.jvmreuse.pool.config.PoolTopology;
import org.jvmreuse.pool.manager.PoolManager;
import org.jvmreuse.pool.mpi.Doorbells;
import org.jvmreuse.pool.mpi.Mpi;
import org.jvmreuse.pool.mpi.MpiBackends;
import org.jvmreuse.pool.mpi.MpiException;
import org.jvmreuse.pool.mpi.MpiTransport;
import org.jvmreuse.pool.service.ManagerService;
import org.jvmreuse.pool.service.MpiServicePort;
import org.jvmreuse.pool.service.ServiceDirectory;
import org.jvmreuse.pool.slot.SlotRuntime;

/**
 * Entry point of every rank of a pool launch ({@code mpirun ... PoolMain}). The ranks learn
 * each other's host names, split into per-node pools, and each becomes its pool's manager or
 * one of its slots.
 */
public final class PoolMain {
    private PoolMain() {
    }

    public static void main(String[] args) throws Exception {
        if (List.of(args).contains("--help") || List.of(args).contains("-h")) {
            System.out.println(PoolOptions.USAGE);
            return;
        }
        PoolThreads.adoptCurrent();
        // The heap reserve is made now, before a run can fill the heap (made lazily, the first
        // check after such a run could not initialise its class, and the slot's runner died).
        Faults.rearm();
        PoolOptions options;
        try {
            options = PoolOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("jvmreuse pool: " + e.getMessage());
            System.exit(2);
            return;
        }
        Mpi mpi;
        try {
            mpi = MpiBackends.open();
        } catch (MpiException e) {
            System.err.println("jvmreuse pool: " + e.getMessage());
            System.exit(2);
            return;
        }
        int threadLevel = mpi.initThread(Mpi.THREAD_FUNNELED);
        int rank = mpi.rank();
        String[] hosts;
        PoolTopology topology;
        Path socket;
        int amSlots;
        Map<Integer, Path> neighbours = new LinkedHashMap<>();
        try {
            hosts = gatherHosts(mpi);
            topology = PoolTopology.of(hosts, rank, options.ranksPerPool(), options.spares());
            amSlots = options.amSlotCap(topology.slotRanks().size());
            socket = options.socketPath(topology.host(), topology.poolIndex(), topology.sharedHost());
            // The control sockets of the other pools on this host: a slot connects a doorbell to each.
            for (Map.Entry<Integer, Integer> other : PoolTopology.otherManagersOn(hosts, options.ranksPerPool(),
                    topology.host(), topology.poolIndex()).entrySet()) {
                neighbours.put(other.getValue(), options.socketPath(topology.host(), other.getKey(), true));
            }
            PoolLog.open(options.logDir(socket, topology.host(), topology.poolIndex()),
                    topology.isManager(rank) ? "manager-" + topology.poolIndex() : "slot-rank" + rank);
        } catch (IllegalArgumentException | IOException e) {
            System.err.println("jvmreuse pool (rank " + rank + "): " + e.getMessage());
            mpi.abort(2);
            return;
        }
        Doorbells doorbells = new Doorbells();
        String doorbellKey = exchangeDoorbellKeys(mpi, topology, hosts, doorbells);
        MpiTransport transport = new MpiTransport(mpi, doorbells);
        PoolLog.get().info("rank " + rank + " of " + mpi.size() + " on " + topology.host()
                + ", pool " + topology.poolIndex() + ", MPI: " + transport.describe() + ", thread level "
                + Mpi.threadLevelName(threadLevel) + ", Java " + Runtime.version());
        MpiServicePort port = new MpiServicePort(transport, rank);
        port.setHosts(List.of(hosts));
        ManagerService service = topology.isManager(rank)
                ? ManagerService.start(options.service(), port, topology.host(), topology.poolIndex()) : null;
        boolean leave = false;
        try {
            port.setDirectory(ServiceDirectory.exchange(mpi, service == null ? "" : service.announcement()));
            if (topology.isManager(rank)) {
                new PoolManager(topology, socket, transport, doorbells, amSlots).run();
            } else {
                new SlotRuntime(topology, socket, neighbours, transport, doorbells, options, port, doorbellKey).run();
            }
        } catch (Throwable e) {
            PoolLog.get().error("rank " + rank + " failed", e);
            if (!transport.serving()) {
                // At start-up a rank that cannot go on ends the whole launch, with the reason, rather than hang it.
                System.err.println("jvmreuse pool (rank " + rank + " on " + topology.host() + "): " + e.getMessage());
                mpi.abort(1);
                return;
            }
            // Serving, it leaves on its own and the launch goes on (mpirun --enable-recovery): a
            // slot's manager sees it go by its doorbell, a manager's slots by theirs.
            leave = true;
        } finally {
            if (service != null) {
                service.stop();
            }
        }
        if (leave) {
            PoolLog.get().warn("rank " + rank + " leaves the launch; the rest of it goes on");
            System.exit(1);
        }
        if (Boolean.parseBoolean(System.getProperty("jvmreuse.mpi.finalize", "true"))) {
            mpi.finish();
        } else {
            // Under MPICH's Hydra MPI_Finalize waits for every rank, a retired or dead slot's
            // too: a rank that is done leaves without it (docs/mpi.md, "Launchers").
            PoolLog.get().info("rank " + rank + " leaves without MPI_Finalize (jvmreuse.mpi.finalize=false)");
        }
        PoolLog.get().info("rank " + rank + " finished");
        System.exit(0);
    }

    /**
     * Each slot makes a random key and every rank learns the others' over MPI; a slot's doorbell
     * presents its key, so that only that slot's own connection can ring for it or tell its
     * manager that it died (a local process of the same user cannot forge one). A manager
     * expects the doorbells of every slot on its host ({@code hostOfRank}, from
     * MPI_Get_processor_name): its own pool's and those of the other pools there, which fetch
     * map outputs from its Shuffle Manager. Returns this rank's key ("" for a manager).
     */
    static String exchangeDoorbellKeys(Mpi mpi, PoolTopology topology, String[] hostOfRank, Doorbells doorbells) {
        int rank = mpi.rank();
        String mine = topology.isManager(rank) ? "" : Doorbells.newKey();
        byte[][] all = mpi.allGather(mine.getBytes(StandardCharsets.US_ASCII));
        if (topology.isManager(rank)) {
            for (int other = 0; other < all.length; other++) {
                // Managers have no key: only slots and spares connect doorbells.
                if (other != rank && all[other].length > 0 && hostOfRank[other].equals(topology.host())) {
                    doorbells.expect(other, new String(all[other], StandardCharsets.US_ASCII));
                }
            }
        }
        return mine;
    }

    /**
     * Every rank's short host name (MPI_Get_processor_name up to the first dot), indexed by rank:
     * it splits the launch into pools and tells each rank which peers share its host.
     */
    private static String[] gatherHosts(Mpi mpi) {
        String name = mpi.processorName();
        int dot = name.indexOf('.');
        byte[][] all = mpi.allGather((dot > 0 ? name.substring(0, dot) : name).getBytes(StandardCharsets.UTF_8));
        String[] hosts = new String[all.length];
        for (int r = 0; r < all.length; r++) {
            hosts[r] = new String(all[r], StandardCharsets.UTF_8);
        }
        return hosts;
    }
}
