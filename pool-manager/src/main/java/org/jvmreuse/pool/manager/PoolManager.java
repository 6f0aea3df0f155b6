package org.jvmreuse.pool.manager;

import java.io.DataInputStream;
import java.io.IOException;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jvmreuse.pool.admission.Admission;
import org.jvmreuse.pool.admission.SlotProfile;
import org.jvmreuse.pool.classpath.ClassPathKey;
import org.jvmreuse.pool.common.PoolLog;
import org.jvmreuse.pool.config.PoolTopology;
import org.jvmreuse.pool.mpi.Doorbells;
import org.jvmreuse.pool.mpi.MpiTransport;
import org.jvmreuse.pool.mpi.Tags;
import org.jvmreuse.pool.mpi.Wire;
import org.jvmreuse.pool.protocol.JavaCommandLine;
import org.jvmreuse.pool.protocol.ProtocolException;
import org.jvmreuse.pool.protocol.RunKind;
import org.jvmreuse.pool.protocol.RunSpec;

/**
 * A node's Pool Manager: takes run requests from local clients, hands each to a free slot over
 * MPI (or queues it, first come first served), and relays the slot's progress back. It never
 * runs user code itself. A slot that leaves service (retires or dies) is replaced by a spare rank
 * while any is left ({@link SpareRanks}). Application masters hold at most {@code amSlots} slots
 * at once; one that waits for that cap lets the runs queued behind it pass (docs/design.md,
 * "Application masters and tasks share slots"). While its slots still warm up after the pool's
 * start, a run that finds no free slot goes to a new JVM at once instead of waiting: a pool that
 * serves before it is warm is never slower than the stock path (docs/design.md, "Serving while
 * warming up"). All mutable state is guarded by {@code this}.
 */
public final class PoolManager implements MpiTransport.Handler {
    private final PoolTopology topology;
    private final Path socket;
    private final MpiTransport transport;
    private final Doorbells doorbells;
    private final SlotTable slots;
    private final SpareRanks spares;
    private final int amSlots;
    private final RunQueue queue = new RunQueue();
    private final Map<Long, PoolRun> running = new HashMap<>();
    private final PoolStatus status;
    private long nextRunId = 1;
    private boolean draining;
    private boolean stopping;
    /** Until every slot started once (said HELLO or left): the pool's warm-up. */
    private boolean warmingUp = true;
    private final long startNanos = System.nanoTime();
    /** What the pool's slots were started with, from the first HELLO; runs are admitted against it. */
    private SlotProfile slotProfile;

    public PoolManager(PoolTopology topology, Path socket, MpiTransport transport, Doorbells doorbells, int amSlots) {
        this.topology = topology;
        this.socket = socket;
        this.transport = transport;
        this.doorbells = doorbells;
        this.slots = new SlotTable(topology.slotRanks());
        this.spares = new SpareRanks(topology.spareRanks());
        this.amSlots = amSlots;
        this.status = new PoolStatus(topology, socket, transport, slots, spares, amSlots);
    }

    public void run() throws Exception {
        try (ControlServer server = new ControlServer(socket, this)) {
            server.start();
            PoolLog.get().info("pool " + topology.poolIndex() + " on " + topology.host() + " serving "
                    + slots.size() + " slots (and " + spares.left() + " spares, application masters in at most "
                    + amSlots + ") at " + socket);
            transport.run(this);
        } finally {
            queue.close();
        }
    }

    synchronized PoolRun newRun(RunSpec spec, JavaCommandLine command, long waitMillis, ClientSession client) {
        return new PoolRun(nextRunId++, spec, command, ClassPathKey.of(spec.classPath()), waitMillis, client);
    }

    /** Queues {@code run} for a slot, or sends it to a new JVM if {@link #stockReason} says so. */
    synchronized void submit(PoolRun run) {
        String reason = stockReason(run);
        if (reason != null) {
            fallback(run, reason);
            return;
        }
        queue.add(run);
        dispatchQueue();
        if (run.state == PoolRun.State.QUEUED && warmingUp) {
            queue.remove(run);
            fallback(run, "the pool is still warming up (" + slots.count(SlotTable.State.STARTING) + " of "
                    + slots.size() + " slots starting) and no started slot is free");
        } else if (run.state == PoolRun.State.QUEUED) {
            run.client.queued(queue.size());
            queue.startWait(run, this::waitExpired);
        }
    }

    /**
     * Why {@code run} must start in a new JVM, or null if it may wait for a slot: decided once,
     * before a slot is picked, from the run itself and what the pool's slots were started with
     * ({@link Admission}; before any slot said HELLO only the run's own part, and the warm-up
     * decides the rest), then from the pool's state.
     */
    private String stockReason(PoolRun run) {
        String refusal = Admission.refusal(run.spec, run.command, slotProfile);
        if (refusal != null) {
            return refusal;
        }
        if (draining) {
            return stopping ? "the pool is stopping" : "the pool is draining";
        }
        if (!slots.anyUsable()) {
            return "the pool has no usable slot left (all retired; see the pool log)";
        }
        if (run.spec.kind() == RunKind.AM && amSlots == 0) {
            return "this pool runs no application masters (--am-slots 0)";
        }
        return null;
    }

    /** Whether {@code run} must wait because application masters hold as many slots as they may. */
    private boolean amCapped(PoolRun run) {
        return run.spec.kind() == RunKind.AM && slots.holding(RunKind.AM) >= amSlots;
    }

    private boolean tryLaunch(PoolRun run) {
        SlotTable.Acquired acquired = slots.acquire(run.classPathKey, run.spec.kind());
        if (acquired == null) {
            return false;
        }
        run.state = PoolRun.State.RUNNING;
        run.slot = acquired.slot();
        run.reuse = acquired.reuse();
        running.put(run.id, run);
        transport.send(slots.rank(run.slot), Tags.LAUNCH, Wire.withBytes(run.id, run.spec.encode()));
        return true;
    }

    private synchronized void waitExpired(PoolRun run) {
        if (queue.remove(run)) {
            fallback(run, amCapped(run)
                    ? "no slot for an application master within " + run.waitMillis + " ms: application masters hold "
                            + slots.holding(RunKind.AM) + " slots, as many as the pool gives them (--am-slots "
                            + amSlots + "); the others are kept for tasks"
                    : "no slot became free within " + run.waitMillis + " ms");
        }
    }

    private void fallback(PoolRun run, String reason) {
        status.fellBack();
        // the client says why only with -v: the pool's log is where an admin finds it
        PoolLog.get().info("run " + run.id + " (" + run.spec.kind().name().toLowerCase(java.util.Locale.ROOT) + ", "
                + run.spec.mainClass() + ") goes to a new JVM: " + reason);
        run.state = PoolRun.State.FINISHED;
        run.client.fallback(reason);
    }

    /**
     * A signal from the client: a queued run ends at once (as a killed {@code java} would), a
     * running one in its slot. SIGQUITs (thread dumps) closer together than
     * {@link PoolRun#QUIT_COALESCE_NANOS} are dropped: a burst gives one dump; any other signal
     * is forwarded once ({@link PoolRun#signalDue}).
     */
    synchronized void signal(PoolRun run, int signal) {
        if (run.state == PoolRun.State.QUEUED) {
            queue.remove(run);
            finish(run, 128 + signal, "");
        } else if (run.state == PoolRun.State.RUNNING && run.signalDue(signal)) {
            transport.send(slots.rank(run.slot), Tags.SIGNAL, Wire.ints(run.id, signal));
        }
    }

    /**
     * The client's start deadline passed and it asks to start a new JVM: a queued run falls back
     * at once, a launched one that has not reached STARTED is cancelled in its slot (it answers
     * DONE as not started, and the client falls back then), and a started one goes on: the
     * client hears {@code started} and runs nothing itself. So a run is never both in a slot and
     * in a new JVM.
     */
    synchronized void cancel(PoolRun run) {
        if (run.state == PoolRun.State.QUEUED) {
            queue.remove(run);
            fallback(run, "the client's start deadline passed while the run was queued");
        } else if (run.state == PoolRun.State.RUNNING && !run.started) {
            transport.send(slots.rank(run.slot), Tags.CANCEL, Wire.ints(run.id));
        }
    }

    /** The client went away: its run must not keep a slot. */
    synchronized void clientGone(PoolRun run) {
        if (run.state != PoolRun.State.FINISHED) {
            PoolLog.get().warn("client of run " + run.id + " disconnected; ending the run");
            signal(run, 9);
        }
    }

    private void finish(PoolRun run, int exitCode, String message) {
        run.state = PoolRun.State.FINISHED;
        status.completed(run.spec.kind());
        run.client.exit(exitCode, message);
    }

    /**
     * A slot connected its doorbell through the control socket, with the key it sent over MPI;
     * a connection without that slot's key (or a second one) is refused, since the doorbell's
     * end-of-file would declare the slot dead. A slot of another pool on this host connects one
     * too (its reducers fetch from this manager's Shuffle Manager), admitted the same way; its
     * end-of-file only drops the sends in flight to it ({@link #onPeerLost} knows no such slot).
     */
    void attachDoorbell(int rank, String key, SocketChannel channel) throws ProtocolException, IOException {
        boolean own = slots.slotOfRank(rank) >= 0 || spares.contains(rank);
        if (!doorbells.admit(rank, key, channel)) {
            throw new ProtocolException(own
                    ? "doorbell for rank " + rank + " refused: it does not carry that slot's key"
                    : "doorbell for rank " + rank + " refused: it is not a slot of this pool, nor one of another"
                            + " pool on this host that carries its key");
        }
    }

    @Override
    public synchronized boolean everyPeerRings() {
        for (int slot = 0; slot < slots.size(); slot++) {
            if (slots.state(slot) != SlotTable.State.RETIRED && !doorbells.has(slots.rank(slot))) {
                return false;
            }
        }
        for (int rank : spares.ranks()) {
            if (!doorbells.has(rank)) {
                return false;
            }
        }
        return true;
    }

    /**
     * A slot's process ended without retiring (killed, crashed): its run ends, the slot leaves
     * service. A spare that ended is no longer counted.
     */
    @Override
    public synchronized void onPeerLost(int rank) {
        int slot = slots.slotOfRank(rank);
        if (slot < 0) {
            if (spares.drop(rank)) {
                PoolLog.get().warn("spare rank " + rank + " died; " + spares.left() + " spare(s) left");
            }
            return;
        }
        if (slots.state(slot) == SlotTable.State.RETIRED) {
            return;
        }
        PoolLog.get().warn("slot " + slot + " (rank " + rank + ") died");
        leaveService(slot, "its process ended unexpectedly", "the pool slot running this program died (see the pool logs)");
        finishStopIfIdle();
    }

    /**
     * A slot retires: its runs end with {@code runMessage}, and a spare takes its place if one is
     * left (not while the pool drains: it takes no more runs); otherwise the pool serves on with
     * fewer slots, and queued runs fall back once none is left.
     */
    private void leaveService(int slot, String reason, String runMessage) {
        int rank = slots.rank(slot);
        slots.retire(slot, reason);
        noteWarmUpEnd();
        endRunsOf(slot, runMessage);
        int spare = draining ? -1 : spares.promote();
        if (spare >= 0) {
            slots.replace(slot, spare);
            transport.send(spare, Tags.PROMOTE, Wire.ints(0, slot));
            PoolLog.get().info("spare rank " + spare + " takes the place of slot " + slot + " (rank " + rank + "); "
                    + spares.left() + " spare(s) left");
        } else {
            PoolLog.get().warn("no spare left to replace slot " + slot + " (rank " + rank + "): the pool serves on with "
                    + (slots.size() - slots.count(SlotTable.State.RETIRED)) + " of " + slots.size() + " slots");
            failQueuedIfNoSlotLeft();
        }
        dispatchQueue(); // an application master waiting for the cap may go now
    }

    /** Ends the pool's warm-up once no slot of its start is still starting (spares warm later). */
    private void noteWarmUpEnd() {
        if (warmingUp && slots.count(SlotTable.State.STARTING) == 0) {
            warmingUp = false;
            PoolLog.get().info(String.format("warm-up done %.1f s after the manager started: %d of %d slots serve",
                    (System.nanoTime() - startNanos) / 1e9, slots.size() - slots.count(SlotTable.State.RETIRED), slots.size()));
        }
    }

    /**
     * The runs of a slot that left service without reporting them done end as killed, with why;
     * one that never reached STARTED falls back instead: none of its code ran (the slot sends
     * STARTED before the program's code, and the transport hands on what a slot sent before
     * it ended), so a new JVM is safe where YARN would fail an attempt on 137.
     */
    private void endRunsOf(int slot, String message) {
        for (PoolRun run : new ArrayList<>(running.values())) {
            if (run.slot == slot) {
                running.remove(run.id);
                if (run.started) {
                    finish(run, 137, message);
                } else {
                    fallback(run, "the pool slot given this run left service before the run started: " + message);
                }
            }
        }
    }

    private void failQueuedIfNoSlotLeft() {
        if (!slots.anyUsable()) {
            queue.removeAll(run -> fallback(run, "the pool has no usable slot left"));
        }
    }

    @Override
    public synchronized void onMessage(int source, int tag, byte[] payload) throws IOException {
        int slot = slots.slotOfRank(source);
        if (slot < 0) {
            fromOutsideTheSlots(source, tag, payload);
            return;
        }
        DataInputStream in = Wire.reader(payload);
        long runId = in.readLong();
        switch (tag) {
            case Tags.HELLO -> {
                if (slots.state(slot) != SlotTable.State.STARTING) {
                    dropForged(source, tag, "slot " + slot + " is not starting");
                    break;
                }
                long pid = in.readLong();
                SlotProfile profile = SlotProfile.readFrom(in);
                if (slotProfile == null) {
                    slotProfile = profile;
                } else if (!profile.equals(slotProfile)) {
                    // One mpirun starts them all alike; a slot that differs would make admission a guess.
                    leaveService(slot, "started otherwise than the pool's first slot: " + slotProfile.differences(profile),
                            "its slot was started otherwise than the pool's others");
                    break;
                }
                slots.ready(slot, pid, profile.jdk());
                noteWarmUpEnd();
                dispatchQueue();
            }
            case Tags.STARTED -> {
                PoolRun run = runOf(slot, runId, source, tag);
                if (run != null && !run.started) {
                    run.started = true;
                    status.started(System.nanoTime() - run.receivedNanos);
                    run.client.started(run.slot, source, slots.pid(run.slot), run.reuse, run.command.fixedOptions());
                }
            }
            case Tags.DONE -> {
                PoolRun run = runOf(slot, runId, source, tag);
                int code = in.readInt();
                boolean started = in.readBoolean();
                String message = in.readUTF();
                if (run == null) {
                    break;
                }
                running.remove(runId);
                if (started) {
                    finish(run, code, message);
                } else {
                    // Nothing of the program ran (its stdio or directory could not be set up):
                    // a new JVM may well manage, and will report any real problem as java does.
                    PoolLog.get().warn("run " + run.id + " falls back: " + message);
                    fallback(run, message);
                }
            }
            case Tags.FREE -> {
                if (holdsRun(slot)) {
                    dropForged(source, tag, "its run has not reported DONE");
                    break;
                }
                slots.release(slot);
                dispatchQueue();
            }
            case Tags.RETIRE -> {
                String reason = in.readUTF();
                PoolLog.get().warn("slot " + slot + " (rank " + source + ") retired: " + reason);
                if (slots.state(slot) == SlotTable.State.RETIRED) {
                    slots.retire(slot, reason); // read after its doorbell closed: now the status says why
                } else {
                    leaveService(slot, reason, "the pool slot running this program failed and left service: " + reason);
                }
            }
            default -> PoolLog.get().warn("ignoring MPI message with unknown tag " + tag + " from rank " + source);
        }
        finishStopIfIdle();
    }

    /**
     * Run {@code runId} if it runs on {@code slot}; null if it has ended. A slot's message about
     * another slot's run is dropped: it could end or start a run it does not hold.
     */
    private PoolRun runOf(int slot, long runId, int source, int tag) {
        PoolRun run = running.get(runId);
        if (run != null && run.slot != slot) {
            dropForged(source, tag, "run " + runId + " is on slot " + run.slot + ", not on its slot " + slot);
            return null;
        }
        return run;
    }

    private boolean holdsRun(int slot) {
        return running.values().stream().anyMatch(run -> run.slot == slot);
    }

    private static void dropForged(int source, int tag, String why) {
        PoolLog.get().warn("dropping a forged MPI message with tag " + tag + " from rank " + source + ": " + why);
    }

    /**
     * A message from a rank that serves no slot: a spare that could not start (RETIRE), a rank
     * that was replaced (a RETIRE that came after its doorbell closed says why it left), or a
     * rank outside this pool, which is ignored.
     */
    private void fromOutsideTheSlots(int source, int tag, byte[] payload) throws IOException {
        DataInputStream in = Wire.reader(payload);
        int former = slots.formerSlotOfRank(source);
        if (tag == Tags.RETIRE && spares.contains(source)) {
            in.readLong();
            spares.drop(source);
            PoolLog.get().warn("spare rank " + source + " retired: " + in.readUTF() + "; " + spares.left() + " spare(s) left");
        } else if (tag == Tags.RETIRE && former >= 0) {
            in.readLong();
            String reason = in.readUTF();
            slots.formerRetired(former, source, reason);
            PoolLog.get().warn("rank " + source + ", replaced in slot " + former + ", had retired: " + reason);
        } else if (former >= 0) {
            PoolLog.get().info("ignoring MPI message with tag " + tag + " from rank " + source + ", which has left slot " + former);
        } else {
            PoolLog.get().warn("ignoring MPI message with tag " + tag + " from rank " + source + ", not a slot of this pool");
        }
    }

    /**
     * Launches queued runs in arrival order while slots are free. An application master that the
     * cap holds back keeps its place, and the runs behind it go by: it would otherwise block the
     * tasks that its own job, or another application master's, waits for.
     */
    private void dispatchQueue() {
        if (draining) {
            return;
        }
        queue.dispatch(this::amCapped, this::tryLaunch);
    }

    synchronized void drain() {
        draining = true;
        queue.removeAll(run -> fallback(run, "the pool is draining"));
        PoolLog.get().info("draining: no new runs accepted");
    }

    synchronized void stop(boolean now) {
        drain();
        stopping = true;
        if (now) {
            for (PoolRun run : new ArrayList<>(running.values())) {
                transport.send(slots.rank(run.slot), Tags.SIGNAL, Wire.ints(run.id, 9));
            }
        }
        PoolLog.get().info("stop requested" + (now ? " (ending running runs)" : ""));
        finishStopIfIdle();
    }

    private void finishStopIfIdle() {
        if (stopping && running.isEmpty() && !slots.anyBusy()) {
            // Retired slots have left (or died) already; a send to a dead rank may never complete.
            for (int i = 0; i < slots.size(); i++) {
                if (slots.state(i) != SlotTable.State.RETIRED) {
                    transport.send(slots.rank(i), Tags.SHUTDOWN, Wire.ints(0));
                }
            }
            for (int rank : spares.ranks()) {
                transport.send(rank, Tags.SHUTDOWN, Wire.ints(0));
            }
            transport.stop();
        }
    }

    synchronized List<String> status() {
        return status.lines(now());
    }

    /** {@link #status} as JSON (docs/protocol.md). */
    synchronized String statusJson() {
        return status.json(now());
    }

    private PoolStatus.Now now() {
        return new PoolStatus.Now(stopping ? "stopping" : draining ? "draining" : "serving", running.size(), queue.size());
    }
}
