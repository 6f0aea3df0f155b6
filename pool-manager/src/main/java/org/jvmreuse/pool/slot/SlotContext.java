package org.jvmreuse.pool.slot;

import java.io.IOException;
import java.util.Map;
import java.util.Properties;
import org.jvmreuse.boot.ServicePort;
import org.jvmreuse.pool.admission.SlotProfile;
import org.jvmreuse.pool.mpi.MpiTransport;
import org.jvmreuse.pool.slot.globals.GlobalStateGuard;

/** The per-process state a slot lends to each run and takes back afterwards. */
final class SlotContext {
    final MpiTransport transport;
    final int managerRank;
    final long threadStopMillis;
    final RunThreadOwners owners = new RunThreadOwners(Thread.currentThread().getThreadGroup());
    final ExitTrap exitTrap = new ExitTrap(owners);
    final StandardStreams streams = new StandardStreams();
    final EnvironmentSwitch environment = new EnvironmentSwitch();
    final WorkingDirectory workingDirectory = new WorkingDirectory();
    final ShutdownHooks shutdownHooks = new ShutdownHooks();
    final ChildProcesses children = new ChildProcesses();
    final TempDirectory tempDirectory = new TempDirectory();
    final LibraryPathDefault libraryPath = new LibraryPathDefault(System.getProperty("java.library.path", ""),
            System.getenv("LD_LIBRARY_PATH"));
    final TaskThreads threads = new TaskThreads(Thread.currentThread().getThreadGroup(), owners);
    final SharedLoaders sharedLoaders;
    final GlobalStateGuard globals = GlobalStateGuard.forThisJvm();
    final RunModuleAccess moduleAccess = new RunModuleAccess();
    final SystemLoaderSwitch systemLoader = new SystemLoaderSwitch();
    final TaskThreadGroup taskGroup = new TaskThreadGroup(Thread.currentThread().getThreadGroup());
    /** Open files of the idle slot, the baseline for what a run leaves open; set after the warm-up. */
    Map<Integer, String> idleFiles = Map.of();
    private final Properties slotProperties = System.getProperties();
    private final Map<Object, Object> propertyBaseline = Map.copyOf(System.getProperties());
    /** What this slot was started with, as it tells its manager at HELLO. */
    final SlotProfile profile = SlotProfile.ofThisJvm(slotProperties);
    final StartupSettings startup = new StartupSettings(profile);

    SlotContext(MpiTransport transport, int managerRank, long threadStopMillis, ServicePort port) throws IOException {
        this.sharedLoaders = new SharedLoaders(port, owners::forSlot);
        this.transport = transport;
        this.managerRank = managerRank;
        this.threadStopMillis = threadStopMillis;
    }

    /** A fresh properties object for a run: the JVM's own, then the run's {@code -D} values. */
    Properties runProperties(Map<String, String> overrides) {
        Properties properties = new Properties();
        propertyBaseline.forEach((k, v) -> {
            if (!k.toString().startsWith("jvmreuse.")) {
                properties.put(k, v);
            }
        });
        overrides.forEach(properties::setProperty);
        return properties;
    }

    /** Puts back process-wide settings a run may have changed. */
    void restoreGlobals() {
        System.setProperties(slotProperties);
        tempDirectory.restore();
    }
}
