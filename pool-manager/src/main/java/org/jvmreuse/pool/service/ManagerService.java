package org.jvmreuse.pool.service;

import org.jvmreuse.boot.PoolService;
import org.jvmreuse.boot.ServicePort;
import org.jvmreuse.pool.classpath.TaskClassLoader;
import org.jvmreuse.pool.common.PoolLog;
import org.jvmreuse.pool.config.PoolOptions;

/**
 * The service a Pool Manager process runs beside the pool (the MPI Shuffle Manager): a
 * {@link PoolService} loaded from its own class path over the platform loader and made with its
 * public no-argument constructor. A service that cannot start is logged and left out: the pool
 * serves on, and its node's data goes the stock way.
 */
public final class ManagerService {
    private final PoolService service;
    private final String announcement;

    private ManagerService(PoolService service, String announcement) {
        this.service = service;
        this.announcement = announcement;
    }

    /** Starts the service; null if there is none or it failed. */
    public static ManagerService start(PoolOptions.Service spec, ServicePort port, String host, int poolIndex) {
        if (spec == null) {
            return null;
        }
        PoolService service;
        ClassLoader loader;
        try {
            loader = new TaskClassLoader(spec.classPath(), ClassLoader.getPlatformClassLoader());
            service = Class.forName(spec.className(), true, loader).asSubclass(PoolService.class)
                    .getConstructor().newInstance();
        } catch (ReflectiveOperationException | ClassCastException | LinkageError e) {
            PoolLog.get().error("service " + spec.className() + " cannot be loaded from " + spec.classPath()
                    + " as a " + PoolService.class.getName() + "; this pool runs without it", e);
            return null;
        }
        Thread self = Thread.currentThread();
        ClassLoader previous = self.getContextClassLoader();
        self.setContextClassLoader(loader);
        try {
            String announced = service.start(port, spec.optionsFor(host, poolIndex), host, poolIndex);
            PoolLog.get().info("service " + spec.className() + " started; it announces '" + announced + "'");
            return new ManagerService(service, announced == null ? "" : announced);
        } catch (Exception | Error e) {
            PoolLog.get().error("service " + spec.className() + " did not start; this pool runs without it", e);
            return null;
        } finally {
            self.setContextClassLoader(previous);
        }
    }

    public String announcement() {
        return announcement;
    }

    /** Stops the service; whatever it throws is logged, never passed on (the pool is ending anyway). */
    public void stop() {
        try {
            service.stop();
        } catch (RuntimeException | Error e) {
            PoolLog.get().warn("stopping service " + service.getClass().getName() + ": " + e);
        }
    }
}
