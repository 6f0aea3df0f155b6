package org.jvmreuse.pool.manager;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.jvmreuse.pool.config.PoolTopology;
import org.jvmreuse.pool.mpi.MpiTransport;
import org.jvmreuse.pool.protocol.RunKind;

/**
 * What {@code jvmreuse status} shows of a pool, as lines or as JSON, and the run counts it keeps
 * for that: the manager's reporting, apart from its queue. Guarded by the manager, which passes
 * what only it knows ({@link Now}) each time.
 */
final class PoolStatus {
    /** The manager's state at the moment of a report. */
    record Now(String state, int running, int queued) {
    }

    private final PoolTopology topology;
    private final Path socket;
    private final MpiTransport transport;
    private final SlotTable slots;
    private final SpareRanks spares;
    private final int amSlots;
    private final LatencyStats latency = new LatencyStats();
    private long completedRuns;
    private long completedAmRuns;
    private long fallbacks;

    PoolStatus(PoolTopology topology, Path socket, MpiTransport transport, SlotTable slots, SpareRanks spares, int amSlots) {
        this.topology = topology;
        this.socket = socket;
        this.transport = transport;
        this.slots = slots;
        this.spares = spares;
        this.amSlots = amSlots;
    }

    /** A run's slot reported it started, {@code nanos} after the request arrived. */
    void started(long nanos) {
        latency.add(nanos);
    }

    void completed(RunKind kind) {
        completedRuns++;
        if (kind == RunKind.AM) {
            completedAmRuns++;
        }
    }

    void fellBack() {
        fallbacks++;
    }

    List<String> lines(Now now) {
        List<String> lines = new ArrayList<>();
        lines.add(String.format("pool %d on %s: %s, socket %s", topology.poolIndex(), topology.host(), now.state(), socket));
        lines.add(String.format("slots: %d (free %d, busy %d, starting %d, retired %d)", slots.size(),
                slots.count(SlotTable.State.FREE), slots.count(SlotTable.State.BUSY),
                slots.count(SlotTable.State.STARTING), slots.count(SlotTable.State.RETIRED)));
        lines.add(replacements());
        lines.add("mpi: " + transport.describe());
        lines.addAll(slots.describe());
        lines.add(String.format("runs: completed %d, running %d, queued %d, fallbacks %d", completedRuns,
                now.running(), now.queued(), fallbacks));
        lines.add(String.format("application masters: %d in slots, at most %d (--am-slots), %d completed",
                slots.holding(RunKind.AM), amSlots, completedAmRuns));
        lines.add(latency.summary());
        return lines;
    }

    /**
     * The same facts as {@link #lines} as one compact JSON object, for scripts. The layout is
     * fixed (docs/protocol.md): every top-level number and string comes before the first array
     * or object, so that a reader of scalars (job-scripts/lib/core/pool.sh) can stop there.
     */
    String json(Now now) {
        return new Json().put("pool", topology.poolIndex()).put("slots_total", slots.size())
                .put("free", slots.count(SlotTable.State.FREE)).put("busy", slots.count(SlotTable.State.BUSY))
                .put("starting", slots.count(SlotTable.State.STARTING)).put("retired", slots.count(SlotTable.State.RETIRED))
                .put("replacements", spares.promoted()).put("spares_left", spares.left())
                .put("runs_completed", completedRuns).put("running", now.running()).put("queued", now.queued())
                .put("fallbacks", fallbacks)
                .put("state", now.state())
                .put("host", topology.host()).put("socket", socket.toString()).put("mpi", transport.describe())
                .put("am_slots", amSlots).put("am_running", slots.holding(RunKind.AM)).put("am_runs_completed", completedAmRuns)
                .putNumbers("spares", spares.ranks()).put("latency", latency.json()).putObjects("slots", slots.json())
                .toString();
    }

    /** E.g. "replacements: 2 made, 1 spare left (rank 5)", and what is lost once none is left. */
    private String replacements() {
        int left = spares.left();
        int retired = slots.count(SlotTable.State.RETIRED);
        String line = String.format("replacements: %d made, %d spare%s left%s", spares.promoted(), left,
                left == 1 ? "" : "s", left == 0 ? "" : (left == 1 ? " (rank " : " (ranks ") + spares.ranks().stream().map(String::valueOf).collect(Collectors.joining(",")) + ")");
        if (retired > 0) {
            line += String.format("; %d slot%s retired with no spare to replace %s: serving with %d of %d", retired,
                    retired == 1 ? "" : "s", retired == 1 ? "it" : "them", slots.size() - retired, slots.size());
        }
        return line;
    }
}
