package org.jvmreuse.pool.slot;

import java.io.DataInputStream;
import java.io.IOException;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jvmreuse.boot.ExitHook;
import org.jvmreuse.boot.ServicePort;
import org.jvmreuse.boot.ThreadStartHook;
import org.jvmreuse.pool.admission.SlotProfile;
import org.jvmreuse.pool.common.Faults;
import org.jvmreuse.pool.common.PoolLog;
import org.jvmreuse.pool.common.PoolThreads;
import org.jvmreuse.pool.config.PoolOptions;
import org.jvmreuse.pool.config.PoolTopology;
import org.jvmreuse.pool.mpi.Doorbells;
import org.jvmreuse.pool.mpi.MpiTransport;
import org.jvmreuse.pool.mpi.Tags;
import org.jvmreuse.pool.mpi.Wire;
import org.jvmreuse.pool.protocol.Frame;
import org.jvmreuse.pool.protocol.FrameChannel;
import org.jvmreuse.pool.protocol.RunKind;
import org.jvmreuse.pool.protocol.RunSpec;
import org.jvmreuse.pool.protocol.StartupInputs;
import org.jvmreuse.pool.protocol.StreamPath;

/**
 * A slot: a warm JVM that runs one program at a time for its Pool Manager. The MPI thread only
 * receives; runs execute on the slot's runner thread. A slot whose run could not be cleaned
 * leaves the pool instead of serving the next run from a contaminated JVM, and so does one whose
 * MPI loop met an error that may have damaged the JVM, or whose memory did not come back after a
 * run that filled it ({@link MemoryCheck}) or stayed well above its idle size ({@link ResidentMemory}). A message the slot cannot handle fails its run only.
 * A spare rank runs this too, but waits, without warming up, until its manager promotes it to
 * take the place of a slot that left; then it warms up and serves as that slot.
 */
public final class SlotRuntime implements MpiTransport.Handler {
    private static final long DOORBELL_CONNECT_MILLIS = 60_000;
    private final String doorbellKey;
    private final Path socket;
    /** The control sockets of the other pools' managers on this host, by rank. */
    private final Map<Integer, Path> neighbours;
    private final MpiTransport transport;
    private final Doorbells doorbells;
    private final int managerRank;
    private final RunReport report;
    private final long threadStopMillis;
    private final long rssMarginBytes;
    private final int warmupRuns;
    private final int warmupParallel;
    private final PoolOptions.LibraryWarmup libraryWarmup;
    private final ServicePort port;
    private final BlockingQueue<TaskRun> launches = new LinkedBlockingQueue<>(1);
    /** Runs accepted and not finished, so that a signal finds its run even before it starts. */
    private final Map<Long, TaskRun> accepted = new ConcurrentHashMap<>();
    private final AtomicBoolean retired = new AtomicBoolean();
    /** Why the slot retires once its run ends: its MPI loop met an out-of-memory error meanwhile. */
    private volatile String retireAfterRun;
    private final boolean spare;
    private final AtomicBoolean promoted = new AtomicBoolean();
    private SlotContext context;
    private MemoryCheck memory;
    private ResidentMemory resident;

    public SlotRuntime(PoolTopology topology, Path socket, Map<Integer, Path> neighbours, MpiTransport transport,
                       Doorbells doorbells, PoolOptions options, ServicePort port, String doorbellKey) {
        this.port = port;
        this.doorbellKey = doorbellKey;
        this.warmupRuns = options.warmupRuns();
        this.warmupParallel = options.warmupParallel();
        this.libraryWarmup = options.libraryWarmup();
        this.socket = socket;
        this.neighbours = Map.copyOf(neighbours);
        this.transport = transport;
        this.doorbells = doorbells;
        this.managerRank = topology.managerRank();
        this.report = new RunReport(transport, managerRank);
        this.threadStopMillis = options.threadStopMillis();
        this.rssMarginBytes = options.rssMarginBytes();
        this.spare = topology.isSpare(port.rank());
    }

    public void run() throws Exception {
        try {
            context = new SlotContext(threadStopMillis, port);
            memory = new MemoryCheck();
            resident = new ResidentMemory(rssMarginBytes);
            ExitHook.install(context.exitTrap);
            ThreadStartHook.install(context.owners);
            JdkServices.start();
            SlotSignals.install(signal -> accepted.values().forEach(run -> run.signal(signal)));
            connectDoorbells(); // before the warm-up, which ends with the baseline of open files
            if (!spare) {
                warmUp();
            }
        } catch (Throwable e) {
            // Say why to the manager (and so to `jvmreuse status`) instead of leaving it waiting.
            Faults.caught(e);
            PoolLog.get().error("this slot cannot serve", e);
            retire("cannot start: " + e.getMessage());
            transport.run(this);
            return;
        }
        if (spare) {
            PoolLog.get().info("a spare: waits, not warmed up, until the manager needs it in a slot's place");
        } else {
            PoolThreads.start("slot-runner", this::runnerLoop);
            transport.send(managerRank, Tags.HELLO, hello());
        }
        transport.run(this);
    }

    /**
     * This spare takes the place of slot {@code slot}: it warms up on its runner thread (the
     * communication thread goes on) and reports ready with HELLO, as a slot does at start-up.
     */
    private void promote(int slot) {
        if (!spare || !promoted.compareAndSet(false, true)) {
            PoolLog.get().warn("ignoring a promotion to slot " + slot + ": this rank is no waiting spare");
            return;
        }
        PoolLog.get().info("promoted: takes the place of slot " + slot + "; warming up");
        PoolThreads.start("slot-runner", () -> {
            try {
                warmUp();
            } catch (Throwable e) {
                Faults.caught(e);
                PoolLog.get().error("this spare cannot serve", e);
                retire("cannot start: " + e.getMessage());
                return;
            }
            transport.send(managerRank, Tags.HELLO, hello());
            runnerLoop();
        });
    }

    /**
     * Connects this slot's doorbell to its manager through the control socket (the manager may
     * still be creating it), then one to each other manager on this host, whose Shuffle Manager
     * serves this slot's reducers: both ends of a shuffle between them can then sleep. Without a
     * doorbell the slot still works, polling MPI more often.
     */
    private void connectDoorbells() {
        long deadline = System.currentTimeMillis() + DOORBELL_CONNECT_MILLIS;
        connectDoorbell(managerRank, socket, deadline);
        neighbours.forEach((rank, path) -> connectDoorbell(rank, path, deadline));
    }

    private void connectDoorbell(int rank, Path path, long deadline) {
        while (true) {
            try {
                SocketChannel channel = SocketChannel.open(UnixDomainSocketAddress.of(path));
                new FrameChannel(channel).write(new Frame("doorbell").add("rank", port.rank()).add("key", doorbellKey));
                doorbells.attach(rank, channel);
                return;
            } catch (IOException e) {
                if (System.currentTimeMillis() > deadline) {
                    PoolLog.get().warn("no doorbell to the manager (rank " + rank + ") at " + path + " (" + e
                            + "); polling instead");
                    return;
                }
                try {
                    Thread.sleep(20);
                } catch (InterruptedException interrupted) {
                    return;
                }
            }
        }
    }

    @Override
    public boolean everyPeerRings() {
        return doorbells.has(managerRank);
    }

    /**
     * The manager's process is gone: nothing will ever be sent to this slot again. Another pool's
     * manager going only takes its doorbell (and the sends in flight to it) away.
     */
    @Override
    public void onPeerLost(int rank) {
        if (rank == managerRank) {
            PoolLog.get().warn("the manager has gone; this slot ends");
            transport.stop();
        }
    }

    /**
     * Runs the warm-up programs through the ordinary run path before telling the manager it is
     * ready, in its turn among the host's JVMs that warm up ({@link WarmupTurn}).
     */
    private void warmUp() throws InterruptedException, IOException {
        try (WarmupTurn turn = WarmupTurn.take(warmupParallel)) {
            warmUpInTurn();
        }
    }

    private void warmUpInTurn() throws InterruptedException, IOException {
        long start = System.nanoTime();
        int runs = warmUpWith(WarmupProgram.class.getName(), List.of(poolJar()), List.of(), warmupRuns);
        PoolLog.get().info(String.format("warmed up with %d runs in %.0f ms", runs, (System.nanoTime() - start) / 1e6));
        if (libraryWarmup != null) {
            start = System.nanoTime();
            runs = warmUpWith(libraryWarmup.mainClass(), libraryWarmup.sharedClassPath(), libraryWarmup.sharedClassPath(),
                    libraryWarmup.runs());
            PoolLog.get().info(String.format("warmed up %s with %d runs of %s in %.0f ms", libraryWarmup.sharedClassPath(),
                    runs, libraryWarmup.mainClass(), (System.nanoTime() - start) / 1e6));
        }
        context.idleFiles = OpenFiles.snapshot();
        resident.markIdle();
    }

    /**
     * The jar the pool's module was defined from, where a run's loader finds the built-in warm-up
     * program (the JVM's class path holds only the launcher).
     */
    private static String poolJar() {
        try {
            return Path.of(WarmupProgram.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (java.net.URISyntaxException | RuntimeException e) {
            throw new IllegalStateException("cannot tell where the pool's jar is: " + e, e);
        }
    }

    /**
     * Each run in a directory of its own, which is removed afterwards. Returns the runs that ended
     * with status 0: a program that fails is not run again (the slot is clean after it, as after a
     * failed task, and serves; the log says why, from the program's error output).
     */
    private int warmUpWith(String mainClass, List<String> classPath, List<String> shared, int runs)
            throws InterruptedException, IOException {
        Map<String, String> environment = System.getenv();
        for (int i = 1; i <= runs; i++) {
            Path cwd = Files.createTempDirectory("jvmreuse-warmup");
            try {
                // The last run's last line of output goes to the log: what the warm-up did (TaskWarmup: its shuffles).
                String stdout = i == runs ? cwd.resolve("stdout").toString() : "/dev/null";
                StreamPath devNull = StreamPath.unchecked("/dev/null");
                RunSpec spec = new RunSpec(mainClass, classPath, shared, List.of(), Map.of(), environment,
                        cwd.toString(), devNull, StreamPath.unchecked(stdout), StreamPath.unchecked(cwd.resolve("stderr").toString()),
                        RunKind.TASK, List.of(), List.of(), StartupInputs.SLOT);
                TaskRun run = new TaskRun(-i, spec, context, RunReport.NONE);
                String problem = run.execute();
                if (problem == null) {
                    problem = run.releaseNativeLibraries();
                }
                if (problem != null) {
                    throw new IllegalStateException("warm-up run of " + mainClass + " failed: " + problem);
                }
                if (run.exitCode() != 0) {
                    PoolLog.get().warn("warm-up run " + i + " of " + mainClass + " ended with exit code " + run.exitCode() + ": "
                            + whyFailed(cwd.resolve("stderr")) + "; the slot serves without its other runs");
                    return i - 1;
                }
                if (i == runs && Files.isRegularFile(cwd.resolve("stdout"))) {
                    List<String> output = Files.readAllLines(cwd.resolve("stdout"), java.nio.charset.StandardCharsets.ISO_8859_1);
                    PoolLog.get().info("warm-up " + mainClass + ": " + (output.isEmpty() ? "no output" : output.get(output.size() - 1)));
                }
            } finally {
                try (var files = Files.walk(cwd)) {
                    files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
                }
            }
        }
        return runs;
    }

    /** The last line of a failed run's error output that is not a stack frame (an uncaught exception's, mostly). */
    private static String whyFailed(Path stderr) throws IOException {
        List<String> lines = Files.isRegularFile(stderr)
                ? Files.readAllLines(stderr, java.nio.charset.StandardCharsets.ISO_8859_1) : List.of();
        return lines.stream().filter(l -> !l.isBlank() && !l.startsWith("\tat ") && !l.startsWith("\t..."))
                .reduce((first, second) -> second).orElse("no error output");
    }

    /** Ready: this process's id and what the manager admits runs against ({@link SlotProfile}). */
    private byte[] hello() {
        return Wire.longAndBytes(0, ProcessHandle.current().pid(), context.profile.encode());
    }

    /**
     * Only this slot's manager may launch, signal, stop or promote it: any other rank of the
     * launch (a task in another slot, say) could otherwise run programs here or end this slot.
     */
    @Override
    public void onMessage(int source, int tag, byte[] payload) throws IOException {
        if (source != managerRank) {
            PoolLog.get().warn("dropping a forged MPI message with tag " + tag + " from rank " + source
                    + ": only this slot's manager (rank " + managerRank + ") sends to it");
            return;
        }
        DataInputStream in = Wire.reader(payload);
        long runId = in.readLong();
        switch (tag) {
            case Tags.LAUNCH -> launch(runId, payload);
            case Tags.SIGNAL -> {
                TaskRun run = accepted.get(runId);
                int signal = in.readInt();
                if (run != null) {
                    run.signal(signal);
                }
            }
            case Tags.CANCEL -> {
                TaskRun run = accepted.get(runId);
                if (run != null) {
                    run.cancelUnlessStarted();
                }
            }
            case Tags.SHUTDOWN -> transport.stop();
            case Tags.PROMOTE -> promote(in.readInt());
            default -> PoolLog.get().warn("ignoring MPI message with unknown tag " + tag + " from rank " + source);
        }
    }

    /**
     * The manager launches one run at a time on a slot (the next after FREE), so at most one is
     * ever waiting here; a second is refused as not started (its client falls back) instead of
     * queueing behind the first.
     */
    private void launch(long runId, byte[] payload) throws IOException {
        if (!accepted.isEmpty()) {
            PoolLog.get().warn("refusing run " + runId + ": run " + accepted.keySet() + " is still in this slot");
            report.done(runId, 1, false, "the pool slot was still busy with another run");
            return;
        }
        TaskRun run = new TaskRun(runId, RunSpec.decode(Wire.body(payload)), context, report);
        accepted.put(runId, run);
        launches.add(run);
    }

    /**
     * A LAUNCH that could not be taken (out of memory decoding it, say) goes back as not
     * started, so its client runs it in a new JVM; the slot stays free unless its JVM may be
     * damaged, which {@link #onFault} handles.
     */
    @Override
    public void onMessageFailed(int source, int tag, long runId, Throwable failure) {
        if (tag != Tags.LAUNCH) {
            return;
        }
        TaskRun run = accepted.remove(runId);
        if (run != null && !launches.remove(run)) {
            return; // the runner has it already and will answer
        }
        report.done(runId, 1, false, "the pool slot could not take this run: " + failure);
        if (!Faults.damaging(failure)) {
            transport.send(managerRank, Tags.FREE, Wire.ints(runId));
        }
    }

    /**
     * An out-of-memory error during a run is most likely the run's doing (its heap or direct
     * memory full), and in a new JVM it would reach the run's own threads: the run goes on to meet
     * it there and end as it would (the reserve let go keeps the loop going meanwhile), and the
     * slot retires after it. Any other damaging error, or one between runs, retires the slot now.
     */
    @Override
    public void onFault(Throwable fault) {
        String reason = "an error that may have damaged this JVM reached its MPI loop: " + fault;
        if (fault instanceof OutOfMemoryError && !accepted.isEmpty()) {
            if (retireAfterRun == null) {
                retireAfterRun = reason;
                PoolLog.get().warn(reason + "; the slot retires when its run ends");
            }
            return;
        }
        retire(reason);
    }

    private void runnerLoop() {
        try {
            while (true) {
                TaskRun run = launches.take();
                String problem = run.execute();
                accepted.remove(run.id());
                if (problem == null) {
                    problem = retireAfterRun;
                }
                if (problem != null) {
                    retire(problem);
                    return;
                }
                String nativeProblem = run.releaseNativeLibraries();
                if (nativeProblem != null) {
                    retire(nativeProblem);
                    return;
                }
                run.releaseLeftOpenFiles();
                String unfit = memory.afterRun();
                if (unfit == null) {
                    unfit = resident.afterRun();
                }
                if (unfit != null) {
                    retire(unfit);
                    return;
                }
                transport.send(managerRank, Tags.FREE, Wire.ints(run.id()));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Throwable e) {
            Faults.caught(e);
            PoolLog.get().error("slot runner failed", e);
            retire("slot runner failed: " + e);
        }
    }

    /**
     * Leaves the pool: tells the manager, then ends this process. With mpirun's
     * {@code --enable-recovery} (the pool launcher sets it) the job goes on without this rank.
     */
    private void retire(String reason) {
        if (!retired.compareAndSet(false, true)) {
            return;
        }
        try {
            PoolLog.get().warn("retiring: " + reason);
            transport.send(managerRank, Tags.RETIRE, Wire.text(0, reason));
        } catch (Throwable e) {
            // Out of memory, most likely: with the reserve let go, the short message gets through.
            Faults.caught(e);
            transport.send(managerRank, Tags.RETIRE, Wire.text(0, "out of memory while retiring"));
        } finally {
            transport.stop();
        }
    }
}
