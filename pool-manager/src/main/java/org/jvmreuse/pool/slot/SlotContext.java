package org.jvmreuse.pool.slot;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.jvmreuse.boot.ServicePort;
import org.jvmreuse.pool.admission.SlotProfile;
import org.jvmreuse.pool.slot.globals.GlobalStateGuard;

/** The per-process state a slot lends to each run and takes back afterwards. */
final class SlotContext {
    final long threadStopMillis;
    final RunThreadOwners owners = new RunThreadOwners(Thread.currentThread().getThreadGroup());
    final ExitTrap exitTrap = new ExitTrap(owners);
    final StandardStreams streams = new StandardStreams();
    private final EnvironmentSwitch environment = new EnvironmentSwitch();
    final WorkingDirectory workingDirectory = new WorkingDirectory();
    final ShutdownHooks shutdownHooks = new ShutdownHooks();
    final ChildProcesses children = new ChildProcesses();
    final TaskThreads threads = new TaskThreads(Thread.currentThread().getThreadGroup(), owners);
    final SharedLoaders sharedLoaders;
    private final GlobalStateGuard globals = GlobalStateGuard.forThisJvm();
    private final RunModuleAccess moduleAccess = new RunModuleAccess();
    final SystemLoaderSwitch systemLoader = new SystemLoaderSwitch();
    final TaskThreadGroup taskGroup = new TaskThreadGroup(Thread.currentThread().getThreadGroup());
    /** Open files of the idle slot, the baseline for what a run leaves open; set after the warm-up. */
    Map<Integer, String> idleFiles = Map.of();
    private final RunProperties properties = new RunProperties();
    /** What this slot was started with, as it tells its manager at HELLO. */
    final SlotProfile profile = SlotProfile.ofThisJvm(System.getProperties());
    private final StartupSettings startup = new StartupSettings(profile);
    private final LoaderHandover loaderHandover = new LoaderHandover(systemLoader, environment);
    final JdkWideState jdkWideState;

    SlotContext(long threadStopMillis, ServicePort port) throws IOException {
        this.sharedLoaders = new SharedLoaders(port, owners::forSlot);
        this.jdkWideState = new JdkWideState(globals, moduleAccess, sharedLoaders);
        this.threadStopMillis = threadStopMillis;
    }

    /**
     * What the slot lends a run, in the order it is lent; {@link RunSteps} takes it back in
     * reverse. {@code gate} refuses a run whose client gave up waiting for it; {@code started}
     * tells the manager the run started. A step put back elsewhere says where, and why.
     */
    RunSteps runSteps(RunStep gate, RunStep started) {
        return new RunSteps(List.of(
                jdkWideState, // recorded before the steps below change any of it, put back after them
                run -> shutdownHooks.markStart(), // the run's hooks run when it ends, as at a JVM's exit (TaskRun)
                // Put back before the run's answer (TaskRun), so that the client has all its output by then.
                run -> streams.lend(run.spec.stdin(), run.spec.stdout(), run.spec.stderr()),
                environment, // put back after the properties (neither reads the other)
                // Put back after the JDK-wide state (TaskRun): the run's code that its put-back calls (a handler's
                // close) sees the run's directory.
                run -> workingDirectory.enter(run.spec.cwd()),
                properties,
                run -> run.startup = startup.plan(run.spec, System.getProperties()),
                this::grantModuleAccess,
                // Closed after every step is put back (TaskRun): the JDK-wide state's put-back may load classes from it.
                run -> run.loader = RunClassPath.of(run.spec.classPath(), run.spec.sharedClassPath()).loader(run.shared),
                gate,
                startup,
                started,
                loaderHandover));
    }

    /**
     * What the run's --add-opens/--add-exports ask for; taken back with the JDK-wide state, as is
     * what the run opens itself.
     */
    private void grantModuleAccess(RunStart run) {
        String unmet = moduleAccess.grant(run.spec);
        if (unmet != null) {
            throw new Refused(unmet);
        }
    }
}
