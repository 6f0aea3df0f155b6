package org.jvmreuse.pool.service;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Map;
import org.jvmreuse.pool.classpath.TaskClassLoader;
import org.jvmreuse.pool.common.PoolLog;
import org.jvmreuse.pool.config.PoolOptions;

/**
 * The service a Pool Manager process runs beside the pool (the MPI Shuffle Manager), loaded from
 * its own class path over the platform loader. Its class has
 * {@code public static String start(Map<String,Object> port)}, returning what this pool announces
 * in the service directory, and {@code public static void stop()}. A service that cannot start
 * is logged and left out: the pool serves on, and its node's data goes the stock way.
 */
public final class ManagerService {
    public static final String OPTIONS = "options";
    public static final String HOST = "host";
    public static final String POOL_INDEX = "poolIndex";

    private final Method stop;
    private final String announcement;

    private ManagerService(Method stop, String announcement) {
        this.stop = stop;
        this.announcement = announcement;
    }

    /** Starts the service; null if there is none or it failed. */
    public static ManagerService start(PoolOptions.Service spec, ServicePort port, String host, int poolIndex) {
        if (spec == null) {
            return null;
        }
        try {
            ClassLoader loader = new TaskClassLoader(spec.classPath(), ClassLoader.getPlatformClassLoader());
            Class<?> type = Class.forName(spec.className(), true, loader);
            Method start = staticMethod(type, "start", Map.class);
            Method stop = staticMethod(type, "stop");
            Map<String, Object> map = port.asMap(Map.of(OPTIONS, spec.optionsFor(host, poolIndex), HOST, host,
                    POOL_INDEX, poolIndex));
            Thread self = Thread.currentThread();
            ClassLoader previous = self.getContextClassLoader();
            self.setContextClassLoader(loader);
            try {
                Object announced = start.invoke(null, map);
                PoolLog.get().info("service " + spec.className() + " started; it announces '" + announced + "'");
                return new ManagerService(stop, announced == null ? "" : announced.toString());
            } finally {
                self.setContextClassLoader(previous);
            }
        } catch (InvocationTargetException e) {
            PoolLog.get().error("service " + spec.className() + " did not start; this pool runs without it", e.getCause());
        } catch (ReflectiveOperationException | RuntimeException | Error e) {
            PoolLog.get().error("service " + spec.className() + " cannot be loaded from " + spec.classPath()
                    + "; this pool runs without it", e);
        }
        return null;
    }

    public String announcement() {
        return announcement;
    }

    /** Stops the service; whatever it throws is logged, never passed on (the pool is ending anyway). */
    public void stop() {
        try {
            stop.invoke(null);
        } catch (ReflectiveOperationException | RuntimeException | Error e) {
            PoolLog.get().warn("stopping service " + stop.getDeclaringClass().getName() + ": " + e);
        }
    }

    private static Method staticMethod(Class<?> type, String name, Class<?>... parameters) throws NoSuchMethodException {
        Method m = type.getMethod(name, parameters);
        if (!Modifier.isStatic(m.getModifiers())) {
            throw new NoSuchMethodException(type.getName() + "." + name + " must be static");
        }
        return m;
    }
}
