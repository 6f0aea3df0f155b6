package org.jvmreuse.it.programs;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.management.ClassLoadingMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.SimpleTimeZone;
import java.util.TimeZone;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import java.util.logging.Filter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import javax.management.NotificationEmitter;
import javax.management.ObjectName;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * JDK-wide state a program can change: java.util.logging, JDBC's DriverManager, MBeans and
 * platform MXBean settings, signal handlers, the common pool and its workers, the process
 * reaper, thread defaults and groups. {@code probe} prints all of it as this JVM shows it;
 * {@code change} changes it with JDK objects; {@code register} changes it with objects of this
 * program's classes (a registry that is not put back keeps the run's loader); {@code memory}
 * prints the JVM's loaded classes and class space after a full GC.
 */
public final class JdkStateProbe {
    /** What {@code register} runs; another probe's registrar is one more entry. */
    private static final List<Runnable> REGISTRARS = List.of(JdkStateProbe::register, NetStateProbe::register);
    private static final String LOGGER = "jvmreuse.probe";
    private static final ThreadLocal<Object> LOCAL = new ThreadLocal<>();

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "probe" -> probe();
            case "change" -> change();
            case "register" -> REGISTRARS.forEach(Runnable::run);
            case "memory" -> memory();
            default -> throw new IllegalArgumentException("mode: probe, change, register or memory, not " + args[0]);
        }
    }

    private static void probe() throws Exception {
        // The launcher must not bind a slot to fewer CPUs than a new JVM sees (mpirun --bind-to none).
        System.out.println("cpus=" + Runtime.getRuntime().availableProcessors() + " gc="
                + java.lang.management.ManagementFactory.getGarbageCollectorMXBeans().get(0).getName());
        Logger root = Logger.getLogger("");
        System.out.println("jul.root=" + root.getLevel() + " " + classes(root.getHandlers()) + " " + root.getFilter());
        System.out.println("jul.config=" + LogManager.getLogManager().getProperty("handlers") + " "
                + LogManager.getLogManager().getProperty(".level") + " " + LogManager.getLogManager().getProperty(LOGGER + ".level"));
        List<String> names = new ArrayList<>();
        for (String name : Collections.list(LogManager.getLogManager().getLoggerNames())) {
            if (name.startsWith(LOGGER)) {
                names.add(name);
            }
        }
        System.out.println("jul.loggers=" + names);
        Logger probe = Logger.getLogger(LOGGER);
        System.out.println("jul.logger=" + probe.getLevel() + " " + classes(probe.getHandlers()) + " " + probe.getFilter()
                + " " + probe.getUseParentHandlers() + " " + probe.getResourceBundleName());
        List<String> drivers = new ArrayList<>();
        Collections.list(DriverManager.getDrivers()).forEach(d -> drivers.add(d.getClass().getName()));
        System.out.println("jdbc=" + drivers + " " + DriverManager.getLoginTimeout() + " " + DriverManager.getLogWriter());
        MBeanServer platform = ManagementFactory.getPlatformMBeanServer();
        System.out.println("mbeans=" + platform.queryNames(new ObjectName("jvmreuse.probe:*"), null)
                + " servers=" + MBeanServerFactory.findMBeanServer(null).size());
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        ClassLoadingMXBean classLoading = ManagementFactory.getClassLoadingMXBean();
        System.out.println("mxbeans=" + threads.isThreadCpuTimeEnabled() + " " + threads.isThreadContentionMonitoringEnabled()
                + " " + ((com.sun.management.ThreadMXBean) threads).isThreadAllocatedMemoryEnabled()
                + " " + ManagementFactory.getMemoryMXBean().isVerbose() + " " + classLoading.isVerbose());
        // usage thresholds only: the slot watches its heap through collection usage thresholds
        TreeSet<Long> thresholds = new TreeSet<>();
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.isUsageThresholdSupported()) {
                thresholds.add(pool.getUsageThreshold());
            }
        }
        System.out.println("thresholds=" + thresholds);
        HotSpotDiagnosticMXBean vm = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        System.out.println("vmoptions=" + vm.getVMOption("HeapDumpOnOutOfMemoryError").getValue() + " "
                + vm.getVMOption("PrintConcurrentLocks").getValue());
        for (String name : List.of("USR1", "TERM")) {
            SignalHandler mine = s -> { };
            SignalHandler before = Signal.handle(new Signal(name), mine);
            Signal.handle(new Signal(name), before);
            System.out.println("signal." + name + "=" + describe(before));
        }
        ForkJoinPool common = ForkJoinPool.commonPool();
        System.out.println("commonpool=" + common.getQueuedSubmissionCount() + " " + common.getQueuedTaskCount());
        System.out.println("worker=" + inWorker(() -> threadState(Thread.currentThread())));
        System.out.println("reaper=" + reaperState());
        System.out.println("defaults=" + Thread.getDefaultUncaughtExceptionHandler() + " " + Locale.getDefault() + " "
                + Locale.getDefault(Locale.Category.DISPLAY) + " " + Locale.getDefault(Locale.Category.FORMAT) + " "
                + TimeZone.getDefault().getID() + " " + TimeZone.getDefault().getRawOffset());
        ThreadGroup group = Thread.currentThread().getThreadGroup();
        System.out.println("groups=" + group.getMaxPriority() + " " + group.isDaemon() + " " + group.activeGroupCount()
                + " " + group.getParent().getMaxPriority());
    }

    private static String classes(Handler[] handlers) {
        List<String> names = new ArrayList<>();
        for (Handler h : handlers) {
            names.add(h.getClass().getName() + "@" + h.getLevel());
        }
        return names.toString();
    }

    private static String describe(SignalHandler handler) {
        if (handler == SignalHandler.SIG_DFL) {
            return "SIG_DFL";
        } else if (handler == SignalHandler.SIG_IGN) {
            return "SIG_IGN";
        }
        // A slot's own handler (SlotSignals) stands in for the JVM's: it ends the run as the JVM's ends a JVM.
        return handler.getClass().getName().startsWith("org.jvmreuse.it.") ? "a program's handler" : "the JVM's handler";
    }

    /** What a thread shows of the state a run can leave on it. */
    private static String threadState(Thread t) {
        return (t.getName().replaceAll("\\d+$", "N")) + " " + t.getPriority() + " "
                + (t.getUncaughtExceptionHandler() instanceof ThreadGroup ? "group" : "own handler") + " "
                + (t.getContextClassLoader() == ClassLoader.getSystemClassLoader()) + " " + LOCAL.get();
    }

    /**
     * Runs {@code task} in a common-pool worker: waiting on a latch, not on the task, which
     * would let the calling thread run it.
     */
    private static <T> T inWorker(java.util.concurrent.Callable<T> task) throws InterruptedException {
        CountDownLatch done = new CountDownLatch(1);
        List<T> result = new ArrayList<>();
        ForkJoinPool.commonPool().execute(() -> {
            try {
                result.add(task.call());
            } catch (Exception e) {
                throw new IllegalStateException(e);
            } finally {
                done.countDown();
            }
        });
        done.await();
        return result.get(0);
    }

    /**
     * The process reaper runs what was chained to a process handle's end before it ended. The
     * process (cat) ends only when its input is closed, after the chaining: a process that ended
     * on its own could end first on a loaded machine, and the chained step then ran in this thread.
     */
    private static String reaperState() throws Exception {
        Process p = new ProcessBuilder("cat").start();
        var state = p.toHandle().onExit().thenApply(ignored -> threadState(Thread.currentThread()));
        p.getOutputStream().close();
        return state.get(10, TimeUnit.SECONDS);
    }

    private static void change() throws Exception {
        Logger root = Logger.getLogger("");
        root.setLevel(Level.FINEST);
        root.addHandler(new java.util.logging.StreamHandler());
        Logger probe = Logger.getLogger(LOGGER, "sun.util.logging.resources.logging");
        probe.setLevel(Level.WARNING);
        probe.setUseParentHandlers(false);
        probe.addHandler(new java.util.logging.ConsoleHandler());
        Logger.getLogger(LOGGER + ".child").setLevel(Level.OFF);
        LogManager.getLogManager().readConfiguration(new ByteArrayInputStream(
                ("handlers=\n.level=SEVERE\n" + LOGGER + ".level=FINE\n").getBytes(StandardCharsets.ISO_8859_1)));
        DriverManager.setLoginTimeout(42);
        DriverManager.setLogWriter(new PrintWriter(new StringWriter()));
        MBeanServer platform = ManagementFactory.getPlatformMBeanServer();
        platform.registerMBean(new javax.management.StandardMBean((Runnable) () -> { }, Runnable.class),
                new ObjectName("jvmreuse.probe:type=Jdk"));
        MBeanServerFactory.createMBeanServer();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        threads.setThreadCpuTimeEnabled(!threads.isThreadCpuTimeEnabled());
        threads.setThreadContentionMonitoringEnabled(true);
        ((com.sun.management.ThreadMXBean) threads).setThreadAllocatedMemoryEnabled(false);
        ManagementFactory.getClassLoadingMXBean().setVerbose(true);
        ManagementFactory.getClassLoadingMXBean().setVerbose(false); // its output would only be noise
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.isUsageThresholdSupported()) {
                pool.setUsageThreshold(1);
            }
            if (pool.isCollectionUsageThresholdSupported()) {
                pool.setCollectionUsageThreshold(1);
            }
        }
        HotSpotDiagnosticMXBean vm = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        vm.setVMOption("HeapDumpOnOutOfMemoryError", "true");
        vm.setVMOption("PrintConcurrentLocks", "true");
        Signal.handle(new Signal("USR1"), SignalHandler.SIG_IGN);
        Signal.handle(new Signal("TERM"), SignalHandler.SIG_DFL);
        inWorker(() -> {
            changeThread(Thread.currentThread(), "changed");
            LOCAL.set("left by a run");
            return null;
        });
        Process p = new ProcessBuilder("sleep", "0.1").start();
        p.toHandle().onExit().thenRun(() -> {
            changeThread(Thread.currentThread(), "changed");
            LOCAL.set("left by a run");
        }).get(10, TimeUnit.SECONDS);
        leaveCommonPoolTasks();
        Thread.setDefaultUncaughtExceptionHandler((t, e) -> { });
        Locale.setDefault(Locale.JAPAN);
        Locale.setDefault(Locale.Category.FORMAT, Locale.GERMANY);
        TimeZone.setDefault(TimeZone.getTimeZone("Pacific/Kiritimati"));
        ThreadGroup group = Thread.currentThread().getThreadGroup();
        new ThreadGroup(group, "left by a run");
        group.getParent().setMaxPriority(Thread.NORM_PRIORITY - 1);
        System.out.println("changed");
    }

    private static void changeThread(Thread t, String name) {
        t.setName(name);
        t.setPriority(Thread.MIN_PRIORITY);
        t.setUncaughtExceptionHandler((thread, e) -> { });
        t.setContextClassLoader(JdkStateProbe.class.getClassLoader());
    }

    /** A task that blocks the common pool's workers, and one queued behind it. */
    private static void leaveCommonPoolTasks() throws InterruptedException {
        CountDownLatch started = new CountDownLatch(1);
        int workers = ForkJoinPool.commonPool().getParallelism();
        for (int i = 0; i < workers; i++) {
            ForkJoinPool.commonPool().execute(() -> {
                started.countDown();
                try {
                    Thread.sleep(60_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }
        started.await();
        ForkJoinPool.commonPool().execute(() -> System.out.println("a queued task of an earlier run"));
    }

    /** Everything {@link #change} changes, with objects of this program's classes. */
    static void register() {
        try {
            Logger root = Logger.getLogger("");
            root.addHandler(new OwnHandler());
            Logger probe = Logger.getLogger(LOGGER);
            probe.setLevel(new OwnLevel());
            probe.setFilter(new OwnFilter());
            probe.addHandler(new OwnHandler());
            LogManager.getLogManager().addConfigurationListener(new OwnRunnable());
            DriverManager.registerDriver(new OwnDriver());
            DriverManager.setLogWriter(new PrintWriter(new OwnWriter()));
            ManagementFactory.getPlatformMBeanServer().registerMBean(new Own(), new ObjectName("jvmreuse.probe:type=Own"));
            MBeanServerFactory.createMBeanServer().registerMBean(new Own(), new ObjectName("jvmreuse.probe:type=Own"));
            ((NotificationEmitter) ManagementFactory.getMemoryMXBean()).addNotificationListener(new OwnListener(), null, null);
            NotificationEmitter gc = (NotificationEmitter) ManagementFactory.getGarbageCollectorMXBeans().get(0);
            gc.addNotificationListener(new OwnListener(), null, null);
            Signal.handle(new Signal("USR1"), new OwnSignalHandler());
            Signal.handle(new Signal("TERM"), new OwnSignalHandler());
            inWorker(() -> {
                LOCAL.set(new Own());
                Thread.currentThread().setUncaughtExceptionHandler(new OwnUncaught());
                return null;
            });
            Process p = new ProcessBuilder("true").start();
            p.toHandle().onExit().thenRun(() -> {
                LOCAL.set(new Own());
                Thread.currentThread().setUncaughtExceptionHandler(new OwnUncaught());
            }).get(10, TimeUnit.SECONDS);
            Thread.setDefaultUncaughtExceptionHandler(new OwnUncaught());
            TimeZone.setDefault(new SimpleTimeZone(3_600_000, "Own/Zone") { });
            new OwnGroup(Thread.currentThread().getThreadGroup());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static void memory() {
        System.gc();
        System.out.println("classes=" + ManagementFactory.getClassLoadingMXBean().getLoadedClassCount());
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getName().equals("Metaspace")) {
                System.out.println("metaspace=" + pool.getUsage().getUsed());
            } else if (pool.getName().equals("Compressed Class Space")) {
                System.out.println("classspace=" + pool.getUsage().getUsed());
            }
        }
    }

    public interface OwnMBean {
        int getValue();
    }

    public static final class Own implements OwnMBean {
        @Override
        public int getValue() {
            return 1;
        }
    }

    private static final class OwnHandler extends Handler {
        @Override
        public void publish(LogRecord record) {
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    }

    private static final class OwnLevel extends Level {
        OwnLevel() {
            super("OWN", 850);
        }
    }

    private static final class OwnFilter implements Filter {
        @Override
        public boolean isLoggable(LogRecord record) {
            return true;
        }
    }

    private static final class OwnRunnable implements Runnable {
        @Override
        public void run() {
        }
    }

    private static final class OwnWriter extends java.io.Writer {
        @Override
        public void write(char[] buf, int off, int len) {
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    }

    private static final class OwnListener implements javax.management.NotificationListener {
        @Override
        public void handleNotification(javax.management.Notification n, Object handback) {
        }
    }

    private static final class OwnSignalHandler implements SignalHandler {
        @Override
        public void handle(Signal sig) {
        }
    }

    private static final class OwnUncaught implements Thread.UncaughtExceptionHandler {
        @Override
        public void uncaughtException(Thread t, Throwable e) {
        }
    }

    private static final class OwnGroup extends ThreadGroup {
        OwnGroup(ThreadGroup parent) {
            super(parent, "own");
        }
    }

    private static final class OwnDriver implements Driver {
        @Override
        public Connection connect(String url, Properties info) {
            return null;
        }

        @Override
        public boolean acceptsURL(String url) {
            return false;
        }

        @Override
        public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) {
            return new DriverPropertyInfo[0];
        }

        @Override
        public int getMajorVersion() {
            return 1;
        }

        @Override
        public int getMinorVersion() {
            return 0;
        }

        @Override
        public boolean jdbcCompliant() {
            return false;
        }

        @Override
        public Logger getParentLogger() {
            return null;
        }
    }
}
