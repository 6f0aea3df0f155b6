package org.jvmreuse.hadoop.task;

import static org.jvmreuse.hadoop.names.HadoopNames.CommonsLoggingReset.FACTORIES;

import java.util.ArrayList;
import java.util.Hashtable;
import java.util.List;
import org.apache.commons.logging.LogFactory;

/**
 * commons-logging caches one LogFactory per context class loader; the entries of a run's loaders
 * (the task's, and a job class loader MRApps may have set) would keep them alive. The Log objects
 * that Hadoop's classes hold in static fields wrap log4j loggers only and stay valid.
 */
final class CommonsLoggingReset {
    private CommonsLoggingReset() {
    }

    static void afterRun() {
        Hashtable<?, ?> factories = (Hashtable<?, ?>) Fields.getStatic(LogFactory.class, FACTORIES);
        if (factories == null) {
            return;
        }
        List<ClassLoader> runLoaders = new ArrayList<>();
        synchronized (factories) {
            for (Object key : factories.keySet()) {
                if (key instanceof ClassLoader loader && !SharedClasses.isShared(loader)) {
                    runLoaders.add(loader);
                }
            }
        }
        runLoaders.forEach(LogFactory::release);
    }
}
