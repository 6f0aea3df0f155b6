package org.jvmreuse.hadoop.task;

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
        SharedClasses.loaded("org.apache.hadoop.metrics.ContextFactory").ifPresent(c -> {
            synchronized (ContextFactory.class) {
                ContextFactory factory = (ContextFactory) Fields.getStatic(ContextFactory.class, "theFactory");
                if (factory != null) {
                    factory.getAllContexts().forEach(MetricsContext::close);
                    Fields.setStatic(ContextFactory.class, "theFactory", null);
                }
                ((Map<?, ?>) Fields.getStatic(ContextFactory.class, "nullContextMap")).clear();
            }
        });
        SharedClasses.loaded("org.apache.hadoop.metrics.jvm.JvmMetrics").ifPresent(jvm -> {
            synchronized (jvm) {
                Fields.setStatic(jvm, "theInstance", null);
            }
        });
    }
}
