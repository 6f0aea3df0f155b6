package org.jvmreuse.pool.slot;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jvmreuse.boot.TaskExit;
import org.jvmreuse.pool.classpath.TaskClassLoader;
import org.jvmreuse.pool.common.Faults;
import org.jvmreuse.pool.common.PoolLog;
import org.jvmreuse.pool.common.PoolThreads;
import org.jvmreuse.pool.protocol.RunSpec;

/**
 * One program run in a slot, from a fresh class loader to the clean-up that makes the slot
 * reusable. The run ends the way a JVM would: when {@code main} has returned and no non-daemon
 * thread of the run is left, on an exit call, or on a signal; then its shutdown hooks run, its
 * leftover threads are ended, its output is closed and the exit code goes back to the manager.
 */
final class TaskRun {
    private static final long HOOK_WAIT_MILLIS = 10_000;
    /** After a kill, the run's threads get this long to stop before the slot retires. */
    private static final long KILL_STOP_MILLIS = 500;
    private static final int FD_RELEASE_COLLECTIONS = 2;
    private static final long FD_CLEANER_WAIT_MILLIS = 100;

    private final long id;
    private final RunSpec spec;
    private final SlotContext slot;
    private final Object lock = new Object();
    private Integer endStatus;
    private boolean runHooks;
    private boolean mainFinished;
    private boolean mainFailed;
    private boolean killed;
    /** Its client's start deadline passed before it started: it never starts (guarded by lock, as is {@link #started}'s setting). */
    private boolean cancelled;
    private long killedAt;
    private volatile boolean started;
    /**
     * Set while a thread dump is being written: a SIGQUIT meanwhile is dropped, so that a run whose
     * stdout nobody reads holds one blocked dump thread, not one per SIGQUIT.
     */
    private final AtomicBoolean dumping = new AtomicBoolean();
    /**
     * The ending signals (1/2/15) passed on to the run's processes, one bit each: once is what a
     * process group gets from one kill, and a flood (straight at the slot's process) must not
     * start a thread each.
     */
    private int signalledChildren;
    private final RunReport report;
    /**
     * The run's class loader from its start until the clean-up closes it; not held after that,
     * so that it can be collected (and its native libraries unloaded).
     */
    private TaskClassLoader loader;
    /** The native libraries the run's loader loaded, unloaded before the slot takes another run. */
    private List<String> nativeLibraries = List.of();

    /** {@code report}: how the manager hears of this run ({@link RunReport#NONE} for the slot's warm-up runs). */
    TaskRun(long id, RunSpec spec, SlotContext slot, RunReport report) {
        this.report = report;
        this.id = id;
        this.spec = spec;
        this.slot = slot;
    }

    long id() {
        return id;
    }

    /** Ends the run with {@code status}; the first request wins. */
    void requestEnd(int status, boolean withHooks) {
        synchronized (lock) {
            if (endStatus == null) {
                endStatus = status;
                runHooks = withHooks;
                lock.notifyAll();
            }
        }
    }

    /**
     * SIGKILL: the run ends at once even if it is already ending (YARN sends SIGKILL 250 ms after
     * SIGTERM): its shutdown hooks are cut off, its threads stopped at once, its processes killed.
     */
    private void kill() {
        synchronized (lock) {
            if (killed) {
                return;
            }
            killed = true;
            killedAt = System.currentTimeMillis();
            endStatus = 137;
            runHooks = false;
            lock.notifyAll();
        }
        if (started) {
            PoolThreads.start("kill-processes", () -> slot.children.signal(9));
        }
    }

    /**
     * As a JVM reacts: SIGQUIT prints a thread dump of the run to its stdout and the run goes on;
     * SIGINT, SIGHUP and SIGTERM end it after its shutdown hooks; SIGKILL ends it at once. The
     * processes the run started get the signal too, as they would in the container's process
     * group (the caller is the MPI thread, so listing them, which reads /proc, happens apart).
     */
    void signal(int signal) {
        if (signal == 3) {
            if (dumping.compareAndSet(false, true)) {
                PoolThreads.start("thread-dump", () -> {
                    try {
                        printThreadDump();
                    } finally {
                        dumping.set(false);
                    }
                });
            }
        } else if (signal == 9) {
            kill();
        } else {
            requestEnd(128 + signal, true);
            if (started && firstToChildren(signal)) {
                PoolThreads.start("signal-children", () -> slot.children.signal(signal));
            }
        }
    }

    private boolean firstToChildren(int signal) {
        synchronized (lock) {
            boolean first = (signalledChildren & (1 << signal)) == 0;
            signalledChildren |= 1 << signal;
            return first;
        }
    }

    private void printThreadDump() {
        StringBuilder dump = new StringBuilder("Full thread dump of the run (jvmreuse slot):\n");
        for (Thread t : slot.threads.live()) {
            dump.append('\n').append('"').append(t.getName()).append('"').append(t.isDaemon() ? " daemon" : "")
                    .append(" prio=").append(t.getPriority()).append("\n   java.lang.Thread.State: ")
                    .append(t.getState()).append('\n');
            for (StackTraceElement frame : t.getStackTrace()) {
                dump.append("\tat ").append(frame).append('\n');
            }
        }
        System.out.print(dump);
        System.out.flush();
    }

    /**
     * The client gave up waiting for STARTED and will start a new JVM unless it hears STARTED
     * after all: a run that has not started never does, one that has goes on.
     */
    void cancelUnlessStarted() {
        synchronized (lock) {
            if (!started) {
                cancelled = true;
            }
        }
    }

    /** A step of the run's: it starts unless its client gave up waiting (then its loader is closed). */
    private void enter(RunStart run) throws IOException {
        synchronized (lock) {
            if (!cancelled) {
                started = true;
            }
        }
        if (!started) {
            run.loader.close();
            throw new Refused("its client's start deadline passed before the run started");
        }
    }

    /**
     * A step of the run's, the last before its loader is handed over: the client relays stdin only
     * after STARTED, so the slot must hold the FIFO open by now; and no code of the run's may go
     * before MPI has it (the manager sends a run that never started, whose slot died, to a new JVM).
     */
    private void reportStarted(RunStart run) throws InterruptedException {
        report.started(id);
        loader = run.loader;
    }

    /** Runs the program and cleans up; returns null if the slot is clean, else why it is not. */
    String execute() throws InterruptedException {
        long t0 = System.nanoTime();
        RunSteps steps = slot.runSteps(this::enter, this::reportStarted);
        SharedLoaders.SharedLibrary shared = null;
        List<Thread> stuck = List.of();
        String failure = null;
        String outOfMemory = null;
        int exitCode;
        long t1 = 0;
        long t2 = 0;
        try {
            // Before the run's hooks are tracked: what a new shared library's hook classes
            // register while they initialise belongs to the slot.
            shared = slot.sharedLoaders.forEntries(spec.sharedClassPath());
            RunStart start = new RunStart(spec, shared);
            steps.lend(start);
            slot.exitTrap.setCurrent(this);
            t1 = System.nanoTime();
            Faults.hold(true);
            Thread main = startMain(start.mainStackSize());
            exitCode = awaitEnd(main);
            t2 = System.nanoTime();
            awaitHooks(slot.shutdownHooks.start(hooksWanted()));
            slot.shutdownHooks.finishDeleteOnExit(hooksWanted());
            stuck = endThreads(shared);
            exitCode = finalStatus();
        } catch (Refused e) {
            failure = e.getMessage();
            exitCode = 1;
            stuck = endThreads(shared);
        } catch (IOException | RuntimeException e) {
            failure = "the pool could not start the program: " + e.getMessage();
            PoolLog.get().error("run " + id + " of " + spec.mainClass() + " could not be set up", e);
            exitCode = 1;
            stuck = endThreads(shared);
        } catch (OutOfMemoryError e) {
            // The slot's own code ran out (the run left the heap full): with the reserve let go the
            // run still ends, and as it would have (its status, not 137); the slot retires after it.
            Faults.spend();
            outOfMemory = "the slot ran out of memory in run " + id + ": " + e;
            failure = started ? null : outOfMemory;
            stuck = endThreads(null); // null: a library's beforeEnd, which may have run, is not called again
            exitCode = finalStatus();
        } finally {
            Faults.hold(false);
            slot.owners.end();
            slot.exitTrap.setCurrent(null);
            restoreStreams();
        }
        report.done(id, exitCode, started, failure);
        long t3 = System.nanoTime();
        if (failure != null) {
            PoolLog.get().warn("run " + id + (started ? " ended with exit code 1: " : " did not start: ") + failure);
        }
        String problem = cleanUp(steps, new RunEnd(id, shared, loader, hooksWanted()), stuck);
        if (outOfMemory != null) {
            problem = outOfMemory;
        }
        long guardNanos = slot.jdkWideState.takeNanos();
        if (report.toManager()) {
            PoolLog.get().info(String.format("run %d (%s): %s exit %d; set-up %.2f ms, program %.2f ms, end %.2f ms, clean-up %.2f ms (JDK-wide state %.3f ms)",
                id, spec.kind().wireName(), spec.mainClass(), exitCode, (t1 - t0) / 1e6, (t2 - t1) / 1e6, (t3 - t2) / 1e6,
                (System.nanoTime() - t3) / 1e6, guardNanos / 1e6));
        }
        return problem;
    }

    /** Ends the run's threads once its shared library had its say (beforeEnd; a failure there is logged). */
    private List<Thread> endThreads(SharedLoaders.SharedLibrary shared) throws InterruptedException {
        if (shared != null && loader != null) {
            try {
                shared.hooks().beforeEnd(loader);
            } catch (RuntimeException e) {
                PoolLog.get().error("run " + id + ": " + e.getMessage(), e);
            }
        }
        long normal = System.currentTimeMillis() + slot.threadStopMillis;
        List<Thread> stuck = slot.threads.endAll(() -> {
            synchronized (lock) {
                return killed ? Math.min(normal, killedAt + KILL_STOP_MILLIS) : normal;
            }
        });
        synchronized (lock) {
            if (!killed) {
                return stuck;
            }
        }
        slot.children.signal(9); // processes its threads started since the kill
        return stuck;
    }

    private boolean hooksWanted() {
        synchronized (lock) {
            return runHooks;
        }
    }

    /** A kill while the run was ending (its hooks running) makes it end as a killed JVM: 137; 1 if it never ended. */
    /** The run's exit status, once {@link #execute} has returned. */
    int exitCode() {
        return finalStatus();
    }

    private int finalStatus() {
        synchronized (lock) {
            return endStatus == null ? 1 : endStatus;
        }
    }

    /** Waits for the run's shutdown hooks, at most {@link #HOOK_WAIT_MILLIS}; a kill ends the wait. */
    private void awaitHooks(List<Thread> hooks) throws InterruptedException {
        long deadline = System.currentTimeMillis() + HOOK_WAIT_MILLIS;
        synchronized (lock) {
            while (!killed && hooks.stream().anyMatch(Thread::isAlive)) {
                long left = deadline - System.currentTimeMillis();
                if (left <= 0) {
                    PoolLog.get().warn("run " + id + ": shutdown hook(s) still running after " + HOOK_WAIT_MILLIS
                            + " ms; ending them");
                    return;
                }
                lock.wait(Math.min(left, 5));
            }
        }
    }

    /** {@code stackSize}: the run's -Xss (0: the JVM's default). */
    private Thread startMain(long stackSize) {
        Thread main = new Thread(slot.taskGroup, () -> runMain(loader), "main", stackSize);
        main.setDaemon(false); // as in java; threads it starts inherit this
        main.setContextClassLoader(loader);
        slot.owners.begin(id, main); // and every thread started until the run ends
        main.start();
        return main;
    }

    /** Runs in the run's main thread: what the {@code java} launcher does, with its messages. */
    private void runMain(ClassLoader loader) {
        try {
            Method main = findMain(loader);
            if (main != null) {
                main.invoke(null, (Object) spec.args().toArray(new String[0]));
            }
        } catch (InvocationTargetException e) {
            reportUncaught(e.getCause());
        } catch (TaskExit e) {
            // the run was ended while main was being set up
        } catch (Throwable e) {
            reportUncaught(e);
        } finally {
            synchronized (lock) {
                mainFinished = true;
                lock.notifyAll();
            }
        }
    }

    private Method findMain(ClassLoader loader) {
        Class<?> mainClass;
        try {
            mainClass = Class.forName(spec.mainClass(), false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            System.err.println("Error: Could not find or load main class " + spec.mainClass());
            System.err.println("Caused by: " + e);
            missingClassPathEntries().forEach(entry ->
                    PoolLog.get().info("run " + id + ": class path entry " + entry + " does not exist"));
            failMain();
            return null;
        }
        try {
            Method main = mainClass.getMethod("main", String[].class);
            // The java launcher calls main of a non-public class too (Hadoop's YarnChild is one).
            if (Modifier.isStatic(main.getModifiers()) && main.getReturnType() == void.class && main.trySetAccessible()) {
                return main;
            }
        } catch (NoSuchMethodException e) {
            // reported below, in the java launcher's words
        }
        System.err.println("Error: Main method not found in class " + spec.mainClass() + ", please define the main method as:");
        System.err.println("   public static void main(String[] args)");
        System.err.println("or a JavaFX application class must extend javafx.application.Application");
        failMain();
        return null;
    }

    private List<String> missingClassPathEntries() {
        List<String> missing = new ArrayList<>();
        for (String entry : spec.classPath()) {
            if (!entry.endsWith("*") && !Files.exists(Path.of(entry))) {
                missing.add(entry);
            }
        }
        return missing;
    }

    private void failMain() {
        synchronized (lock) {
            mainFailed = true;
        }
    }

    private void reportUncaught(Throwable e) {
        if (e instanceof TaskExit) {
            return;
        }
        if (e instanceof OutOfMemoryError) {
            // The run's code on this thread is done: its error, as java prints it, and the run's end need the reserve.
            Faults.spend();
        }
        failMain();
        hidePoolFrames(e);
        Thread self = Thread.currentThread();
        self.getUncaughtExceptionHandler().uncaughtException(self, e);
    }

    /** Cuts the slot's frames (and the reflective call into main) off the trace, as java shows it. */
    private static void hidePoolFrames(Throwable e) {
        StackTraceElement[] trace = e.getStackTrace();
        for (int i = 0; i < trace.length; i++) {
            if (trace[i].getClassName().equals(TaskRun.class.getName())) {
                int end = i;
                while (end > 0 && isReflection(trace[end - 1])) {
                    end--;
                }
                e.setStackTrace(Arrays.copyOf(trace, end));
                return;
            }
        }
    }

    private static boolean isReflection(StackTraceElement frame) {
        String cls = frame.getClassName();
        return cls.startsWith("jdk.internal.reflect.") || cls.equals("java.lang.reflect.Method");
    }

    private int awaitEnd(Thread main) throws InterruptedException {
        synchronized (lock) {
            while (endStatus == null) {
                if (mainFinished && noOtherNonDaemon(main)) {
                    endStatus = mainFailed ? 1 : 0;
                    runHooks = true;
                    break;
                }
                lock.wait(mainFinished ? 5 : 0);
            }
            return endStatus;
        }
    }

    /**
     * Looking allocates: in a heap the run left full that lets the reserve go (its main thread has
     * ended, it cannot take it) and the next look, 5 ms on, finds the room.
     */
    private boolean noOtherNonDaemon(Thread main) {
        try {
            for (Thread t : slot.threads.liveNonDaemon()) {
                if (t != main) {
                    return false;
                }
            }
            return true;
        } catch (OutOfMemoryError e) {
            Faults.spend();
            return false;
        }
    }

    private void restoreStreams() {
        try {
            slot.streams.restore();
        } catch (IOException e) {
            PoolLog.get().error("run " + id + ": restoring the slot's standard streams failed", e);
        }
    }

    /**
     * After the client has its answer: the run's steps are taken back, the slot returns to its
     * working directory (if it cannot, it retires at once), and the run's loader and what it
     * left running are let go.
     */
    private String cleanUp(RunSteps steps, RunEnd end, List<Thread> stuck) {
        List<String> unrestorable = steps.restore(end);
        try {
            slot.workingDirectory.restore();
        } catch (IOException e) {
            return "cannot return to the slot's working directory: " + e.getMessage();
        }
        if (loader != null) {
            nativeLibraries = RunNativeLibraries.loadedBy(loader);
            slot.systemLoader.releaseFrom(loader);
            try {
                loader.close();
            } catch (IOException e) {
                PoolLog.get().warn("run " + id + ": closing its class loader: " + e);
            }
            loader = null;
        }
        java.beans.Introspector.flushCaches();
        if (spec.environment().containsKey("CONTAINER_ID")) {
            try {
                slot.children.endAsContainer(); // a YARN task's processes end with its container
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        slot.children.markIdle(); // what a run that ended by itself left running is not the next run's
        if (!stuck.isEmpty()) {
            return stuck.size() + " thread(s) of run " + id + " would not stop: " + stuck;
        }
        return unrestorable.isEmpty() ? null : String.join("; ", unrestorable);
    }

    /**
     * A run that loaded native libraries through its loader: they are unloaded now, so that the
     * next run loads them afresh; null once they are, else why the slot must retire. Called after
     * {@link #execute} has returned, so that no frame of it still holds the run's loader.
     */
    String releaseNativeLibraries() throws InterruptedException {
        if (nativeLibraries.isEmpty()) {
            return null;
        }
        long start = System.nanoTime();
        String problem = RunNativeLibraries.awaitUnloaded(nativeLibraries);
        if (problem == null) {
            PoolLog.get().info(String.format("run %d: native libraries %s unloaded in %.2f ms", id, nativeLibraries,
                    (System.nanoTime() - start) / 1e6));
            return null;
        }
        return "run " + id + " loaded native libraries: " + problem;
    }

    /**
     * Files the run left open are closed by the JDK's cleaners once their streams are
     * unreachable, which they are once the run's loader and threads are gone; a GC makes that
     * happen now. Only runs that left descriptors open pay for it. Called after {@link #execute}
     * has returned, so that no frame of it still holds the run's loader.
     */
    void releaseLeftOpenFiles() {
        Map<Integer, String> now = OpenFiles.snapshot();
        Set<String> kept = slot.sharedLoaders.openJars();
        List<String> leaked = OpenFiles.added(slot.idleFiles, now, kept);
        // One full collection makes every unreachable stream's cleaner run; a second catches what
        // the first one's cleaners released. What survives both is still referenced (such as a
        // selector a shared library keeps for later runs), and more collections would not close it.
        for (int collections = 0; collections < FD_RELEASE_COLLECTIONS && !leaked.isEmpty(); collections++) {
            System.gc();
            long deadline = System.currentTimeMillis() + FD_CLEANER_WAIT_MILLIS;
            while (!leaked.isEmpty() && System.currentTimeMillis() < deadline) {
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                now = OpenFiles.snapshot();
                leaked = OpenFiles.added(slot.idleFiles, now, kept);
            }
        }
        if (!leaked.isEmpty()) {
            PoolLog.get().warn("run " + id + " left file descriptors open that are still referenced: " + leaked);
        }
        slot.idleFiles = now;
    }
}
