package org.jvmreuse.hadoop.task;

import java.lang.management.ManagementFactory;
import java.util.Map;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.hadoop.metrics2.MetricsSystem;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.metrics2.impl.MetricsSystemImpl;

/**
 * Metrics2 as in a JVM that has just loaded UserGroupInformation: a new, uninitialised metrics
 * system (so DefaultMetricsSystem.initialize takes the next task's prefix), no source or MBean
 * names taken, no Hadoop MBeans, no JvmMetrics singleton (it keeps the first process name), log
 * event counts at zero, and UGI's metrics source registered as its class initialiser does.
 */
final class MetricsReset {
    /** Enough for any number of initialize() calls a task can make. */
    private static final int MAX_SHUTDOWNS = 1_000;

    private MetricsReset() {
    }

    static void afterRun() {
        MetricsSystem old = DefaultMetricsSystem.setInstance(new MetricsSystemImpl());
        try {
            // a task that exited without DefaultMetricsSystem.shutdown() leaves it started
            for (int i = 0; i < MAX_SHUTDOWNS && !old.shutdown(); i++) {
                // each call undoes one initialize()
            }
        } catch (RuntimeException e) {
            // it is dropped either way (a sink of the job failed to stop); its MBeans go below
        }
        unregisterHadoopMBeans();
        synchronized (DefaultMetricsSystem.INSTANCE) {
            names("mBeanNames").clear();
            names("sourceNames").clear();
        }
        DefaultMetricsSystem.setMiniClusterMode(false);
        SharedClasses.loaded("org.apache.hadoop.metrics2.source.JvmMetrics$Singleton").ifPresent(singleton -> {
            Object instance = Fields.getStatic(singleton, "INSTANCE");
            synchronized (instance) {
                Fields.set(instance, "impl", null);
            }
        });
        SharedClasses.loaded("org.apache.hadoop.log.metrics.EventCounter").ifPresent(counter ->
                Fields.setStatic(counter, "counts", Fields.newInstance(nested(counter, "EventCounts"))));
        SharedClasses.loaded("org.apache.hadoop.security.UserGroupInformation").ifPresent(ugi ->
                Fields.setStatic(ugi, "metrics", Fields.callStatic(nested(ugi, "UgiMetrics"), "create")));
    }

    private static void unregisterHadoopMBeans() {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        try {
            for (ObjectName name : server.queryNames(new ObjectName("Hadoop:*"), null)) {
                server.unregisterMBean(name);
            }
        } catch (JMException e) {
            throw new IllegalStateException("cannot unregister Hadoop's MBeans: " + e, e);
        }
    }

    private static Map<?, ?> names(String field) {
        return (Map<?, ?>) Fields.get(Fields.get(DefaultMetricsSystem.INSTANCE, field), "map");
    }

    private static Class<?> nested(Class<?> outer, String simpleName) {
        for (Class<?> c : outer.getDeclaredClasses()) {
            if (c.getSimpleName().equals(simpleName)) {
                return c;
            }
        }
        throw new IllegalStateException("no " + outer.getName() + "$" + simpleName);
    }
}
