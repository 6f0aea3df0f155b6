package org.jvmreuse.pool.slot.globals;

import java.lang.reflect.Field;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jvmreuse.pool.jdk.JdkInternals;

/**
 * java.sql.DriverManager: the registered drivers (a driver of the run's loader keeps that loader),
 * whether the drivers of the class path were looked up yet (the lookup uses the context loader of
 * the first caller, so each run must make its own, as in a new JVM), the log writer and stream,
 * and the login timeout. Read from the fields: getDrivers() would do the lookup.
 */
final class JdbcDrivers implements GlobalState {
    private static final String DRIVER_MANAGER = "java.sql.DriverManager";
    private final Field registered = JdkInternals.field(DRIVER_MANAGER, "registeredDrivers");
    private final Field initialized = JdkInternals.field(DRIVER_MANAGER, "driversInitialized");
    private final Field logWriter = JdkInternals.field(DRIVER_MANAGER, "logWriter");
    private final Field logStream = JdkInternals.field(DRIVER_MANAGER, "logStream");
    private final Field loginTimeout = JdkInternals.field(DRIVER_MANAGER, "loginTimeout");

    @Override
    public String name() {
        return "JDBC DriverManager";
    }

    @Override
    public Snapshot capture() {
        Object[] drivers = drivers().toArray();
        Object wasInitialized = JdkInternals.get(initialized, null);
        Object writer = JdkInternals.get(logWriter, null);
        Object stream = JdkInternals.get(logStream, null);
        Object timeout = JdkInternals.get(loginTimeout, null);
        return runLoader -> {
            CopyOnWriteArrayList<Object> now = drivers();
            if (!Arrays.equals(now.toArray(), drivers)) {
                now.clear();
                now.addAll(List.of(drivers));
            }
            JdkInternals.set(initialized, null, wasInitialized);
            JdkInternals.set(logWriter, null, writer);
            JdkInternals.set(logStream, null, stream);
            JdkInternals.set(loginTimeout, null, timeout);
            return null;
        };
    }

    @SuppressWarnings("unchecked")
    private CopyOnWriteArrayList<Object> drivers() {
        return (CopyOnWriteArrayList<Object>) JdkInternals.get(registered, null);
    }
}
