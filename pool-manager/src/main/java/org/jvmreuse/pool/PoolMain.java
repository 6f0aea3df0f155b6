package org.jvmreuse.pool;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import mpi.MPI;
import org.jvmreuse.pool.manager.PoolManager;
import org.jvmreuse.pool.mpi.Doorbells;
import org.jvmreuse.pool.mpi.MpiTransport;
import org.jvmreuse.pool.service.ManagerService;
import org.jvmreuse.pool.service.ServiceDirectory;
import org.jvmreuse.pool.service.ServicePort;
import org.jvmreuse.pool.slot.SlotRuntime;

/**
 * Entry point of every rank of a pool launch ({@code mpirun ... PoolMain}). The ranks learn
 * each other's host names, split into per-node pools, and each becomes its pool's manager or
 * one of its slots.
 */
public final class PoolMain {
    private static final int HOST_BYTES = 256;

    private PoolMain() {
    }

    public static void main(String[] args) throws Exception {
        PoolThreads.adoptCurrent();
        PoolOptions options;
        try {
            options = PoolOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("jvmreuse pool: " + e.getMessage());
            System.exit(2);
            return;
        }
        int threadLevel = MPI.InitThread(new String[0], MPI.THREAD_FUNNELED);
        int rank = MPI.COMM_WORLD.getRank();
        PoolTopology topology;
        Path socket;
        try {
            topology = PoolTopology.of(gatherHosts(), rank, options.ranksPerPool());
            socket = options.socketPath(topology.host(), topology.poolIndex(), topology.sharedHost());
            PoolLog.open(options.logDir(socket, topology.host(), topology.poolIndex()),
                    topology.isManager(rank) ? "manager-" + topology.poolIndex() : "slot-rank" + rank);
        } catch (IllegalArgumentException e) {
            System.err.println("jvmreuse pool (rank " + rank + "): " + e.getMessage());
            MPI.COMM_WORLD.abort(2);
            return;
        }
        PoolLog.get().info("rank " + rank + " of " + MPI.COMM_WORLD.getSize() + " on " + topology.host()
                + ", pool " + topology.poolIndex() + ", MPI thread level " + threadLevel
                + ", Java " + Runtime.version());
        Doorbells doorbells = new Doorbells();
        MpiTransport transport = new MpiTransport(MPI.COMM_WORLD, doorbells);
        ServicePort port = new ServicePort(transport, rank);
        ManagerService service = topology.isManager(rank)
                ? ManagerService.start(options.service(), port, topology.host(), topology.poolIndex()) : null;
        try {
            port.setDirectory(ServiceDirectory.exchange(MPI.COMM_WORLD, service == null ? "" : service.announcement()));
            if (topology.isManager(rank)) {
                new PoolManager(topology, socket, transport, doorbells).run();
            } else {
                new SlotRuntime(topology, socket, transport, doorbells, options, port).run();
            }
        } catch (Exception | Error e) {
            // A rank that cannot go on ends the whole launch, with the reason, rather than hang it.
            PoolLog.get().error("rank " + rank + " failed", e);
            System.err.println("jvmreuse pool (rank " + rank + " on " + topology.host() + "): " + e.getMessage());
            MPI.COMM_WORLD.abort(1);
            return;
        } finally {
            if (service != null) {
                service.stop();
            }
        }
        MPI.Finalize();
        PoolLog.get().info("rank " + rank + " finished");
        System.exit(0);
    }

    private static String[] gatherHosts() throws Exception {
        byte[] mine = Arrays.copyOf(hostName().getBytes(StandardCharsets.UTF_8), HOST_BYTES);
        int size = MPI.COMM_WORLD.getSize();
        byte[] all = new byte[HOST_BYTES * size];
        MPI.COMM_WORLD.allGather(mine, HOST_BYTES, MPI.BYTE, all, HOST_BYTES, MPI.BYTE);
        String[] hosts = new String[size];
        for (int r = 0; r < size; r++) {
            int end = r * HOST_BYTES;
            while (end < (r + 1) * HOST_BYTES && all[end] != 0) {
                end++;
            }
            hosts[r] = new String(all, r * HOST_BYTES, end - r * HOST_BYTES, StandardCharsets.UTF_8);
        }
        return hosts;
    }

    private static String hostName() throws Exception {
        String name = MPI.getProcessorName();
        int dot = name.indexOf('.');
        return dot > 0 ? name.substring(0, dot) : name;
    }
}
