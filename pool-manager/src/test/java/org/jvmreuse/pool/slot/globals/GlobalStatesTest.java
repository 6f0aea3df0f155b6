package org.jvmreuse.pool.slot.globals;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.TimeZone;
import java.util.concurrent.ForkJoinPool;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import javax.management.ListenerNotFoundException;
import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/** Each JDK-wide state changed as a run would, then put back by its guard, in this JVM. */
class GlobalStatesTest {
    @Test
    void julLoggersHandlersLevelsAndConfigurationGoBack() throws Exception {
        Logger root = Logger.getLogger("");
        Logger existing = Logger.getLogger("jvmreuse.test.existing");
        Level rootLevel = root.getLevel();
        Handler[] rootHandlers = root.getHandlers();
        String configured = LogManager.getLogManager().getProperty("handlers");
        GlobalState.Snapshot before = new JulLogging().capture();

        ClosingHandler added = new ClosingHandler();
        root.addHandler(added);
        root.setLevel(Level.FINEST);
        existing.setLevel(Level.SEVERE);
        existing.setUseParentHandlers(false);
        existing.setFilter(r -> false);
        Logger created = Logger.getLogger("jvmreuse.test.created");
        ClosingHandler own = new ClosingHandler();
        created.addHandler(own);
        created.setLevel(Level.FINE);
        LogManager.getLogManager().readConfiguration(new ByteArrayInputStream(
                "handlers=\njvmreuse.test.created.level=OFF\n".getBytes(StandardCharsets.ISO_8859_1)));

        assertNull(before.restore(null));
        assertSame(rootLevel, root.getLevel());
        assertArrayEquals(rootHandlers, root.getHandlers());
        assertNull(existing.getLevel());
        assertTrue(existing.getUseParentHandlers());
        assertNull(existing.getFilter());
        assertEquals(configured, LogManager.getLogManager().getProperty("handlers"));
        assertTrue(added.closed && own.closed, "the run's handlers are closed as at a JVM's exit");
        assertFalse(Collections.list(LogManager.getLogManager().getLoggerNames()).contains("jvmreuse.test.created"));
        Logger again = Logger.getLogger("jvmreuse.test.created");
        assertNull(again.getLevel(), "a new logger, not the run's");
        assertEquals(0, again.getHandlers().length);
        assertNull(created.getLevel(), "the run's logger is emptied");
    }

    @Test
    void jdbcDriversTheRunRegisteredAreGoneAndSettingsGoBack() throws Exception {
        DriverManager.getDrivers(); // the class path's drivers, looked up as the slot would have
        GlobalState.Snapshot before = new JdbcDrivers().capture();
        int timeout = DriverManager.getLoginTimeout();
        FakeDriver driver = new FakeDriver();
        DriverManager.registerDriver(driver);
        DriverManager.setLoginTimeout(timeout + 17);
        DriverManager.setLogWriter(new java.io.PrintWriter(System.out));

        assertNull(before.restore(null));
        assertFalse(Collections.list(DriverManager.getDrivers()).contains(driver));
        assertEquals(timeout, DriverManager.getLoginTimeout());
        assertNull(DriverManager.getLogWriter());
    }

    @Test
    void mbeansAndMBeanServersTheRunMadeAreGone() throws Exception {
        MBeanServer platform = ManagementFactory.getPlatformMBeanServer();
        GlobalState.Snapshot before = new PlatformMBeans().capture();
        ObjectName name = new ObjectName("jvmreuse.test:type=Probe");
        platform.registerMBean(new Probe(), name);
        MBeanServer own = MBeanServerFactory.createMBeanServer();

        assertNull(before.restore(null));
        assertFalse(platform.isRegistered(name));
        assertFalse(MBeanServerFactory.findMBeanServer(null).contains(own));
    }

    @Test
    void aPlatformMBeanTheRunUnregisteredRetiresTheSlot() throws Exception {
        MBeanServer platform = ManagementFactory.getPlatformMBeanServer();
        ObjectName name = new ObjectName("jvmreuse.test:type=Slot");
        platform.registerMBean(new Probe(), name);
        try {
            GlobalState.Snapshot before = new PlatformMBeans().capture();
            platform.unregisterMBean(name);
            String problem = before.restore(null);
            assertNotNull(problem);
            assertTrue(problem.contains("jvmreuse.test:type=Slot"), problem);
        } finally {
            if (platform.isRegistered(name)) {
                platform.unregisterMBean(name);
            }
        }
    }

    @Test
    void mxBeanSettingsAndListenersGoBack() throws Exception {
        var threads = ManagementFactory.getThreadMXBean();
        boolean contention = threads.isThreadContentionMonitoringEnabled();
        MemoryPoolMXBean pool = ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(MemoryPoolMXBean::isUsageThresholdSupported).findFirst().orElseThrow();
        long threshold = pool.getUsageThreshold();
        GlobalState.Snapshot settings = new ManagementSettings().capture();
        GlobalState.Snapshot listeners = new MXBeanListeners().capture();
        threads.setThreadContentionMonitoringEnabled(!contention);
        pool.setUsageThreshold(threshold + 1024 * 1024);
        MemoryPoolMXBean collected = ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(MemoryPoolMXBean::isCollectionUsageThresholdSupported).findFirst().orElseThrow();
        long collectionThreshold = collected.getCollectionUsageThreshold();
        collected.setCollectionUsageThreshold(collectionThreshold + 1);
        ManagementFactory.getClassLoadingMXBean().setVerbose(true);
        NotificationListener listener = (n, h) -> { };
        NotificationEmitter memory = (NotificationEmitter) ManagementFactory.getMemoryMXBean();
        memory.addNotificationListener(listener, null, null);

        assertNull(settings.restore(null));
        assertNull(listeners.restore(null));
        assertEquals(contention, threads.isThreadContentionMonitoringEnabled());
        assertEquals(threshold, pool.getUsageThreshold());
        assertEquals(collectionThreshold, collected.getCollectionUsageThreshold());
        assertFalse(ManagementFactory.getClassLoadingMXBean().isVerbose());
        assertThrows(ListenerNotFoundException.class, () -> memory.removeNotificationListener(listener));
    }

    @Test
    void signalHandlersGoBack() {
        GlobalState.Snapshot before = new SignalHandlers().capture();
        SignalHandler mine = s -> { };
        SignalHandler terminator = Signal.handle(new Signal("TERM"), mine);
        SignalHandler usr1 = Signal.handle(new Signal("USR1"), mine);
        Signal.handle(new Signal("USR1"), SignalHandler.SIG_IGN); // no Java handler left to see

        assertNull(before.restore(null));
        SignalHandler probe = s -> { };
        assertEquals(String.valueOf(usr1), String.valueOf(Signal.handle(new Signal("USR1"), probe)));
        SignalHandler termNow = Signal.handle(new Signal("TERM"), probe);
        assertFalse(termNow == mine || termNow == probe, "TERM has the JVM's handler again: " + termNow);
        // this JVM's own handlers back for good
        Signal.handle(new Signal("TERM"), terminator);
        Signal.handle(new Signal("USR1"), usr1);
        assertNull(before.restore(null));
    }

    @Test
    void commonPoolWorkersForgetTheRunsThreadLocalsNameAndHandler() throws Exception {
        inWorker(() -> null); // a worker the slot had before the run
        GlobalState.Snapshot before = new JdkThreadState().capture();
        ThreadLocal<Object> local = new ThreadLocal<>();
        Thread.UncaughtExceptionHandler handler = (t, e) -> { };
        Thread worker = inWorker(() -> {
            Thread t = Thread.currentThread();
            local.set(new Object());
            t.setName("renamed-by-run");
            t.setPriority(Thread.MIN_PRIORITY);
            t.setUncaughtExceptionHandler(handler);
            t.setContextClassLoader(new ClassLoader() { });
            return t;
        });

        assertTrue(worker instanceof java.util.concurrent.ForkJoinWorkerThread, worker.toString());
        assertNull(before.restore(null));
        assertFalse(worker.getName().equals("renamed-by-run"), worker.getName());
        assertEquals(Thread.NORM_PRIORITY, worker.getPriority());
        assertFalse(worker.getUncaughtExceptionHandler() == handler);
        assertSame(ClassLoader.getSystemClassLoader(), worker.getContextClassLoader());
        assertNull(inWorker(() -> Thread.currentThread() == worker ? local.get() : null));
    }

    /** Runs {@code task} in a common-pool worker (waiting on a task could run it in the caller). */
    private static <T> T inWorker(java.util.concurrent.Callable<T> task) throws Exception {
        java.util.concurrent.CompletableFuture<T> result = new java.util.concurrent.CompletableFuture<>();
        java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(1);
        ForkJoinPool.commonPool().execute(() -> {
            try {
                result.complete(task.call());
            } catch (Exception e) {
                result.completeExceptionally(e);
            } finally {
                done.countDown();
            }
        });
        done.await();
        return result.getNow(null);
    }

    @Test
    void threadDefaultsAndGroupsGoBack() {
        Locale locale = Locale.getDefault();
        Locale format = Locale.getDefault(Locale.Category.FORMAT);
        TimeZone zone = TimeZone.getDefault();
        ThreadGroup group = Thread.currentThread().getThreadGroup();
        int max = group.getMaxPriority();
        List<GlobalState.Snapshot> before = List.of(new DefaultLocale().capture(), new DefaultTimeZone().capture(),
                new DefaultUncaughtHandler().capture(), new ThreadGroups().capture());
        Locale.setDefault(Locale.JAPAN);
        Locale.setDefault(Locale.Category.FORMAT, Locale.GERMANY);
        TimeZone.setDefault(TimeZone.getTimeZone("Pacific/Kiritimati"));
        Thread.setDefaultUncaughtExceptionHandler((t, e) -> { });
        group.setMaxPriority(Thread.MIN_PRIORITY);

        before.forEach(s -> assertNull(s.restore(null)));
        assertEquals(locale, Locale.getDefault());
        assertEquals(format, Locale.getDefault(Locale.Category.FORMAT));
        assertEquals(zone, TimeZone.getDefault());
        assertNull(Thread.getDefaultUncaughtExceptionHandler());
        assertEquals(max, group.getMaxPriority());
    }

    /** A handler that records whether it was closed. */
    private static final class ClosingHandler extends Handler {
        volatile boolean closed;

        @Override
        public void publish(LogRecord record) {
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    public interface ProbeMBean {
        int getValue();
    }

    public static final class Probe implements ProbeMBean {
        @Override
        public int getValue() {
            return 1;
        }
    }

    private static final class FakeDriver implements Driver {
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
        public java.util.logging.Logger getParentLogger() {
            return null;
        }
    }
}
