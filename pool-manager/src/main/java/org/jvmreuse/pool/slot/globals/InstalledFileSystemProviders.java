package org.jvmreuse.pool.slot.globals;

import java.lang.reflect.Field;
import org.jvmreuse.pool.jdk.JdkInternals;

/**
 * {@code FileSystemProvider.installedProviders()}: the JDK loads the list once, through the
 * system class loader, and keeps it with the providers' state (the zip provider's open file
 * systems). A run gets none of the slot's list: its first use makes its own, from the run's
 * class path (the system class loader is the run's during the run), as in a new JVM, so it finds
 * its own providers, and a jar file system it leaves open is not there for the next run. After
 * the run the slot's list goes back (made when the slot started, {@code JdkServices}).
 */
final class InstalledFileSystemProviders implements GlobalState {
    private static final String CLASS = "java.nio.file.spi.FileSystemProvider";
    private final Field installed = JdkInternals.field(CLASS, "installedProviders");
    /** Set when the list is being made, and left set by the JDK: the next making would be "circular" without a reset. */
    private final Field loading = JdkInternals.field(CLASS, "loadingProviders");
    private final Object lock = JdkInternals.get(JdkInternals.field(CLASS, "lock"), null);

    @Override
    public String name() {
        return "installed file system providers";
    }

    @Override
    public Snapshot capture() {
        Object slots;
        Object wasLoading;
        synchronized (lock) {
            slots = JdkInternals.get(installed, null);
            wasLoading = JdkInternals.get(loading, null);
            JdkInternals.set(installed, null, null);
            JdkInternals.set(loading, null, false);
        }
        return runLoader -> {
            synchronized (lock) {
                JdkInternals.set(installed, null, slots);
                JdkInternals.set(loading, null, wasLoading);
            }
            return null;
        };
    }
}
