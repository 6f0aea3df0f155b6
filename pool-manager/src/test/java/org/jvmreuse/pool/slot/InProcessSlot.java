package org.jvmreuse.pool.slot;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.instrument.Instrumentation;
import java.lang.ref.WeakReference;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.jvmreuse.boot.ExitHook;
import org.jvmreuse.boot.ThreadStartHook;
import org.jvmreuse.pool.classpath.TaskClassLoader;
import org.jvmreuse.pool.common.PoolLog;
import org.jvmreuse.pool.common.PoolThreads;
import org.jvmreuse.pool.config.PoolOptions;
import org.jvmreuse.pool.mpi.Doorbells;
import org.jvmreuse.pool.mpi.InProcessMpi;
import org.jvmreuse.pool.mpi.Mpi;
import org.jvmreuse.pool.mpi.MpiTransport;
import org.jvmreuse.pool.mpi.Tags;
import org.jvmreuse.pool.mpi.Wire;
import org.jvmreuse.pool.service.MpiServicePort;

/**
 * A slot in the test's own JVM, for tests of what runs in slots (a shared library's run hooks):
 * its runs go through the slot's own sequence, a {@link TaskRun} over {@link SlotContext#runSteps},
 * on a runner thread as {@link SlotRuntime}'s, followed by its runner's after-run steps; the
 * manager hears STARTED and DONE over the in-process MPI world and signals the run over it. No
 * pool, client or warm-up runs.
 *
 * <p>One per JVM, made on first use: the agent's exit and thread-start hooks take one listener per
 * process. The JVM needs what a pool JVM gets from its command line (job-scripts/lib/core/pool.sh): the
 * boot jar on the boot class path ({@code -Xbootclasspath/a:pool-manager-*-boot.jar}) and
 * {@code -Djvmreuse.native=.../libjvmreuse.so}; and {@code -Djdk.attach.allowAttachSelf=true} for
 * the agent ({@link InProcessAgent}). The agent opens the JDK packages the pool's code needs to
 * that code's module, here the class path's (which the test's own classes share), not to runs'
 * loaders, which get what they ask for. Runs take the process's file descriptors 0 to 2, so a JVM
 * forked by surefire must talk to Maven over TCP ({@code SurefireForkNodeFactory}). Like a slot,
 * it stops serving after a run it cannot clean up ({@link RunOutcome#slotProblem}).
 */
public final class InProcessSlot {
    private static final int MANAGER = 0;
    private static final int SLOT = 1;
    private static InProcessSlot instance;

    private final InProcessManager manager;
    private final Instrumentation instrumentation;
    /** The runner's thread group, the slot's: runs' threads live under it, the test's own threads do not. */
    private final ThreadGroup slotGroup = new ThreadGroup("slot");
    private final ExecutorService runner;
    private final Map<Long, TaskRun> accepted = new ConcurrentHashMap<>();
    private final AtomicLong runIds = new AtomicLong();
    /** Every shared loader the slot has had (one it closed may still define classes), weakly; the runner's. */
    private final Set<ClassLoader> sharedLoaders = Collections.newSetFromMap(new WeakHashMap<>());
    /** Set up on the runner, then read by the runs' callers. */
    private volatile SlotContext context;
    private volatile RunReport report;
    private MemoryCheck memory;
    private volatile String retired;

    private InProcessSlot(Instrumentation instrumentation) throws Exception {
        List<InProcessMpi> world = InProcessMpi.world(2);
        this.manager = new InProcessManager(world.get(MANAGER), SLOT);
        this.instrumentation = instrumentation;
        this.runner = Executors.newSingleThreadExecutor(task -> {
            Thread t = new Thread(slotGroup, task, "slot-runner");
            t.setDaemon(true);
            return t;
        });
        onRunner(() -> {
            setUp(world.get(SLOT));
            return null;
        });
    }

    /** The slot of this JVM, set up on first use. */
    public static synchronized InProcessSlot get() throws Exception {
        if (instance == null) {
            instance = new InProcessSlot(InProcessAgent.instrumentation());
        }
        return instance;
    }

    /** As a pool JVM starts a slot (PoolMain, SlotRuntime.run), on the runner, a pool thread. */
    private void setUp(Mpi mpi) throws Exception {
        // Logs to the stderr of the test JVM, taken now, before any run has fd 2 and System.err.
        PoolLog.get().info("a slot in this JVM (pid " + ProcessHandle.current().pid() + ")");
        PoolThreads.adoptCurrent();
        PoolAgent.install(instrumentation);
        MpiTransport transport = new MpiTransport(mpi, new Doorbells());
        SlotContext slot = new SlotContext(PoolOptions.parse(new String[0]).threadStopMillis(),
                new MpiServicePort(transport, SLOT));
        ExitHook.install(new TestThreadExits(slotGroup, slot));
        ThreadStartHook.install(slot.owners);
        JdkServices.start();
        PoolThreads.start("mpi-comm", () -> communicate(transport));
        memory = new MemoryCheck();
        slot.idleFiles = OpenFiles.snapshot();
        report = new RunReport(transport, MANAGER);
        context = slot;
    }

    /** The slot's MPI loop: the manager sends only signals here (SlotRuntime.onMessage). */
    private void communicate(MpiTransport transport) {
        try {
            transport.run(new MpiTransport.Handler() {
                @Override
                public void onMessage(int source, int tag, byte[] payload) throws IOException {
                    DataInputStream in = Wire.reader(payload);
                    TaskRun run = accepted.get(in.readLong());
                    if (tag == Tags.SIGNAL && run != null) {
                        run.signal(in.readInt());
                    }
                }

                @Override
                public void onPeerLost(int rank) {
                }

                @Override
                public boolean everyPeerRings() {
                    return true; // the in-process manager needs no hot polling: its signals can wait a moment
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Runs {@code run} in the slot and returns how it ended, once the slot has cleaned up after it. */
    public RunOutcome run(InProcessRun run) throws Exception {
        return start(run).await();
    }

    /** Hands {@code run} to the slot, which runs it after the runs before it. */
    public StartedRun start(InProcessRun run) throws IOException {
        String why = retired;
        if (why != null) {
            throw new IllegalStateException("the in-process slot has retired: " + why);
        }
        long id = runIds.incrementAndGet();
        Path directory = Files.createTempDirectory("in-process-run");
        TaskRun task = new TaskRun(id, run.spec(directory), context, report);
        accepted.put(id, task);
        return new StartedRun(id, manager, runner.submit(() -> execute(task, run.mainClass(), directory)));
    }

    /**
     * The slot's loader of {@code sharedClassPath}, made as for a run that names it (with its run
     * hooks) if it has none: what a library keeps in statics across runs can be looked at through it.
     */
    public ClassLoader sharedLoader(List<String> sharedClassPath) throws Exception {
        return onRunner(() -> context.sharedLoaders.forEntries(sharedClassPath).loader());
    }

    /** As SlotRuntime's runner loop: the run, then what the slot checks before it takes another. */
    private RunOutcome execute(TaskRun task, String mainClass, Path directory) throws Exception {
        try {
            Set<ClassLoader> loadersBefore = loadersOf(mainClass);
            String problem = task.execute();
            if (problem == null) {
                problem = task.releaseNativeLibraries();
            }
            if (problem == null) {
                task.releaseLeftOpenFiles();
                // ResidentMemory is left out: this JVM's size is the test run's, not a slot's after its warm-up.
                problem = memory.afterRun();
            }
            if (problem != null) {
                retired = "run " + task.id() + " of " + mainClass + ": " + problem;
            }
            InProcessManager.Done done = manager.done(task.id());
            Set<ClassLoader> loaders = loadersOf(mainClass);
            loaders.removeAll(loadersBefore);
            return new RunOutcome(done.exitCode(), done.started(), done.failure(), problem, read(directory, "stdout"),
                    read(directory, "stderr"), new WeakReference<>(loaders.isEmpty() ? null : loaders.iterator().next()));
        } finally {
            accepted.remove(task.id());
            try (Stream<Path> files = Files.walk(directory)) {
                files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }

    /** The runs' loaders (not the slot's shared ones) that have defined {@code className} and are not collected yet. */
    private Set<ClassLoader> loadersOf(String className) {
        context.sharedLoaders.unnamedModules().forEach(m -> sharedLoaders.add(m.getClassLoader()));
        Set<ClassLoader> loaders = Collections.newSetFromMap(new WeakHashMap<>());
        for (Class<?> c : instrumentation.getAllLoadedClasses()) {
            if (c.getName().equals(className) && c.getClassLoader() instanceof TaskClassLoader loader
                    && !sharedLoaders.contains(loader)) {
                loaders.add(loader);
            }
        }
        return loaders;
    }

    private static String read(Path directory, String name) throws IOException {
        Path file = directory.resolve(name);
        return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
    }

    private <T> T onRunner(Callable<T> task) throws Exception {
        try {
            return runner.submit(task).get();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }
}
