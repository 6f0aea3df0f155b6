package org.jvmreuse.hadoop.task;

import static org.jvmreuse.hadoop.names.HadoopNames.MetricsV1Reset.JVM_METRICS;
import static org.jvmreuse.hadoop.names.HadoopNames.MetricsV1Reset.NULL_CONTEXTS;
import static org.jvmreuse.hadoop.names.HadoopNames.MetricsV1Reset.THE_FACTORY;

import java.util.Map;
import org.apache.hadoop.metrics.ContextFactory;
import org.apache.hadoop.metrics.MetricsContext;

/**
 * The old metrics API, which the reduce side's ShuffleClientMetrics still uses: its context
 * factory singleton holds the contexts, and they hold every registered updater (with its job
 * configuration) and a timer. Contexts are closed and the singletons forgotten.
 */
final class MetricsV1Reset {
    private MetricsV1Reset() {
    }

    static void afterRun() {
        THE_FACTORY.ifPresent(theFactory -> SharedClasses.loaded(theFactory.owner()).ifPresent(c -> {
            synchronized (ContextFactory.class) {
                ContextFactory factory = (ContextFactory) Fields.getStatic(ContextFactory.class, theFactory);
                if (factory != null) {
                    factory.getAllContexts().forEach(MetricsContext::close);
                    Fields.setStatic(ContextFactory.class, theFactory, null);
                }
                ((Map<?, ?>) Fields.getStatic(ContextFactory.class, NULL_CONTEXTS.orElseThrow())).clear();
            }
        }));
        JVM_METRICS.ifPresent(instance -> SharedClasses.loaded(instance.owner()).ifPresent(jvm -> {
            synchronized (jvm) {
                Fields.setStatic(jvm, instance, null);
            }
        }));
    }
}
