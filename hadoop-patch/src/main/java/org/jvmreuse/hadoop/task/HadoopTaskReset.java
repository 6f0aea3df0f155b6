package org.jvmreuse.hadoop.task;

import static org.jvmreuse.hadoop.names.HadoopNames.HadoopTaskReset.CONFIGURATIONS;
import static org.jvmreuse.hadoop.names.HadoopNames.HadoopTaskReset.HDFS_CONFIGURATION;
import static org.jvmreuse.hadoop.names.HadoopNames.HadoopTaskReset.HDFS_FIRST_USE;
import static org.jvmreuse.hadoop.names.HadoopNames.HadoopTaskReset.SLOT_INITIALISED;
import static org.jvmreuse.hadoop.names.HadoopNames.HadoopTaskReset.YARN_CONFIGURATION;
import static org.jvmreuse.hadoop.names.HadoopNames.HadoopTaskReset.YARN_FIRST_USE;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import org.jvmreuse.boot.RunHook;
import org.jvmreuse.boot.SlotAccess;
import org.jvmreuse.hadoop.counters.TaskLaunches;
import org.jvmreuse.hadoop.names.ClassName;

/**
 * The slot's run hook for Hadoop 2.2.0 and 3.x (its names: HadoopNames; listed in META-INF/services/org.jvmreuse.boot.RunHook): Hadoop's classes
 * stay loaded in the slot's shared loader across YARN task containers, and this makes each task
 * see the Hadoop state of a new JVM, and lets the finished task's class loader be collected.
 * Each reset step runs on its own (see {@link Problems}): beforeRun never throws; afterRun throws
 * IllegalStateException, which makes the slot retire, only when a critical step failed.
 */
public final class HadoopTaskReset implements RunHook {
    /** What beforeRun could not do, reported by the afterRun of the same run. */
    private static Problems pending = new Problems();
    /** What YARN's and HDFS's configurations register, for the runs that use them; null without the module. */
    private static final Registrations YARN;
    private static final Registrations HDFS;

    static {
        // Initialised once, outside runs, by the slot: what these class initialisers register
        // (ShutdownHookManager's JVM hook, the default configuration resources, the codec service
        // loader) belongs to the slot and sees the shared loader as context loader.
        Thread self = Thread.currentThread();
        ClassLoader previous = self.getContextClassLoader();
        self.setContextClassLoader(SharedClasses.loader());
        try {
            Log4jReset.quiet();
            CONFIGURATIONS.forEach(HadoopTaskReset::initialise);
            ConfigurationReset.recordSlotDefaults();
            YARN = registrationsOf(YARN_CONFIGURATION);
            HDFS = registrationsOf(HDFS_CONFIGURATION);
            SLOT_INITIALISED.forEach(HadoopTaskReset::initialise);
            SharedExecutors.adopt(SharedClasses.loader());
        } finally {
            self.setContextClassLoader(previous);
        }
    }

    /** Called once by the slot, after the class is initialised: what the slot lends this library. */
    @Override
    public void attach(SlotAccess slot) {
        SharedClasses.findLoadedWith(slot::findLoadedClass);
        SharedExecutors.tellSlotWith(slot::slotThread);
        StatisticsCleaner.tellSlotWith(slot::slotThread);
        // What a new JVM's initialisers register on the task's first use of YARN or HDFS
        if (YARN != null) {
            slot.onFirstUse(loaded(YARN_FIRST_USE), YARN);
        }
        if (HDFS != null) {
            slot.onFirstUse(loaded(HDFS_FIRST_USE), HDFS);
        }
    }

    /** With the run's environment, properties, directory, stdio and context loader in place. */
    @Override
    public void beforeRun(BiConsumer<String, String> setenv) {
        TaskLaunches.inSlot(true); // the task counts as pooled
        Problems p = new Problems();
        // launch_container.sh exports JVM_PID=$$ and execs java: Task reads its own process tree
        p.critical("JVM_PID", () -> setenv.accept("JVM_PID", Long.toString(ProcessHandle.current().pid())));
        p.critical("log4j", Log4jReset::beforeRun);
        p.critical("Hadoop shutdown hooks", HadoopShutdownHooks::beforeRun);
        p.critical("class registries", ClassRegistries::beforeRun);
        p.minor("service loaders", () -> ServiceLoaderStatics.pointAt(Thread.currentThread().getContextClassLoader()));
        p.critical("MRAppMaster statics", AppMasterStatics::beforeRun);
        // 3.x: what the slot's start read (Counters' initialiser) is not the task's job's
        p.critical("counter limits", MapReduceStatics::forgetCounterLimits);
        pending = p;
    }

    /** When the run ends, after its JVM hooks, before the slot interrupts and stops its threads. */
    @Override
    public void beforeEnd() {
        pending.critical("IPC", IpcReset::refuseCalls);
        pending.critical("servers", RunServers::stop);
        pending.critical("DFSClient read pools", DfsClientReadPools::shutDown);
    }

    /** After the run's JVM hooks ran (if {@code exitHooks}) and its threads ended. */
    @Override
    public void afterRun(boolean exitHooks) {
        TaskLaunches.inSlot(false);
        Problems p = pending; // with what beforeRun could not do
        pending = new Problems();
        p.critical("Hadoop shutdown hooks", () -> HadoopShutdownHooks.afterRun(exitHooks));
        p.critical("log4j", Log4jReset::afterRun);
        p.critical("commons-logging", CommonsLoggingReset::afterRun);
        p.critical("FileSystem", FileSystemReset::afterRun);
        p.minor("SecureIOUtils statistics", FileSystemReset::keepSecureIoStatistics);
        p.critical("HDFS client", HdfsClientReset::afterRun);
        p.critical("security", SecurityReset::afterRun);
        p.critical("service loaders", () -> ServiceLoaderStatics.pointAt(SharedClasses.loader()));
        p.critical("metrics", MetricsReset::afterRun);
        p.critical("metrics v1", MetricsV1Reset::afterRun);
        p.critical("class registries", ClassRegistries::afterRun);
        p.critical("codec pool", CodecPoolReset::afterRun);
        p.critical("IPC", IpcReset::afterRun);
        p.critical("MapReduce statics", MapReduceStatics::afterRun);
        p.critical("MRAppMaster statics", AppMasterStatics::afterRun);
        // last: moves configurations that the steps above left in shared statics to the shared loader
        p.critical("Configuration", ConfigurationReset::afterRun);
        p.throwIfCritical();
    }

    private static Registrations registrationsOf(ClassName initialiser) {
        try {
            return ConfigurationReset.registrationsOf(initialiser);
        } catch (ClassNotFoundException e) {
            return null; // a module the slot's Hadoop does not have (hdfs)
        }
    }

    /** The classes the shared loader has of {@code names}, loaded, not initialised. */
    private static List<Class<?>> loaded(List<ClassName> names) {
        List<Class<?>> classes = new ArrayList<>();
        for (ClassName name : names) {
            try {
                classes.add(Class.forName(name.name(), false, SharedClasses.loader()));
            } catch (ClassNotFoundException e) {
                // hadoop-hdfs without hadoop-hdfs-client's classes: nothing of it can be used
            }
        }
        return classes;
    }

    private static void initialise(ClassName className) {
        try {
            Class.forName(className.name(), true, SharedClasses.loader());
        } catch (ClassNotFoundException e) {
            // a module the slot's Hadoop does not have (hdfs)
        }
    }
}
