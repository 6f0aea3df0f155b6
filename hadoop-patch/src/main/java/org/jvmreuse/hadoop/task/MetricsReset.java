package org.jvmreuse.hadoop.task;

import static org.jvmreuse.hadoop.names.HadoopNames.MetricsReset.COUNTS;
import static org.jvmreuse.hadoop.names.HadoopNames.MetricsReset.CREATE_UGI_METRICS;
import static org.jvmreuse.hadoop.names.HadoopNames.MetricsReset.EVENT_COUNTS;
import static org.jvmreuse.hadoop.names.HadoopNames.MetricsReset.JVM_METRICS_IMPL;
import static org.jvmreuse.hadoop.names.HadoopNames.MetricsReset.JVM_METRICS_INSTANCE;
import static org.jvmreuse.hadoop.names.HadoopNames.MetricsReset.MBEAN_NAMES;
import static org.jvmreuse.hadoop.names.HadoopNames.MetricsReset.METRICS;
import static org.jvmreuse.hadoop.names.HadoopNames.MetricsReset.NAMES_MAP;
import static org.jvmreuse.hadoop.names.HadoopNames.MetricsReset.SOURCE_NAMES;
import static org.jvmreuse.hadoop.names.HadoopNames.MetricsReset.UGI_METRICS;

import java.lang.management.ManagementFactory;
import java.util.Map;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.hadoop.metrics2.MetricsSystem;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.metrics2.impl.MetricsSystemImpl;
import org.jvmreuse.hadoop.names.ClassName;
import org.jvmreuse.hadoop.names.FieldName;

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
            names(MBEAN_NAMES).clear();
            names(SOURCE_NAMES).clear();
        }
        DefaultMetricsSystem.setMiniClusterMode(false);
        SharedClasses.loaded(JVM_METRICS_INSTANCE.owner()).ifPresent(singleton -> {
            Object instance = Fields.getStatic(singleton, JVM_METRICS_INSTANCE);
            synchronized (instance) {
                Fields.set(instance, JVM_METRICS_IMPL, null);
            }
        });
        COUNTS.ifPresent(counts -> SharedClasses.loaded(counts.owner()).ifPresent(counter ->
                Fields.setStatic(counter, counts, Fields.newInstance(nested(counter, EVENT_COUNTS.orElseThrow())))));
        SharedClasses.loaded(METRICS.owner()).ifPresent(ugi ->
                Fields.setStatic(ugi, METRICS, Fields.callStatic(nested(ugi, UGI_METRICS), CREATE_UGI_METRICS)));
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

    private static Map<?, ?> names(FieldName field) {
        return (Map<?, ?>) Fields.get(Fields.get(DefaultMetricsSystem.INSTANCE, field), NAMES_MAP);
    }

    /** {@code nested}, a class nested in {@code outer}, from outer's loader. */
    private static Class<?> nested(Class<?> outer, ClassName nested) {
        try {
            return Class.forName(nested.name(), false, outer.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("no " + nested, e);
        }
    }
}
