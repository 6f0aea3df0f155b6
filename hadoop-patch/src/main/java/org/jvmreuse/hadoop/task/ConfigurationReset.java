package org.jvmreuse.hadoop.task;

import static org.jvmreuse.hadoop.names.HadoopNames.ConfigurationReset.CLASS_CACHE;
import static org.jvmreuse.hadoop.names.HadoopNames.ConfigurationReset.DEFAULT_RESOURCES;
import static org.jvmreuse.hadoop.names.HadoopNames.ConfigurationReset.DEPRECATED_KEYS;
import static org.jvmreuse.hadoop.names.HadoopNames.ConfigurationReset.DEPRECATION_ACCESSED;
import static org.jvmreuse.hadoop.names.HadoopNames.ConfigurationReset.REGISTRY;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.hadoop.conf.Configuration;

/**
 * Configuration's statics: the default resources go back to what the slot had after loading
 * Configuration, JobConf, YarnConfiguration (and HdfsConfiguration), the class cache empties,
 * deprecation warnings are due again once per task, and every Configuration that outlives the run
 * (held by a shared static such as Limits.conf or a YARN record factory, created while the task's
 * loader was the context loader) is moved to the shared loader so it no longer holds the task's.
 */
final class ConfigurationReset {
    private static List<String> slotDefaults = List.of();

    private ConfigurationReset() {
    }

    /** Called once, when the slot has initialised the classes that add default resources. */
    static void recordSlotDefaults() {
        slotDefaults = List.copyOf(defaultResources());
    }

    static void afterRun() {
        synchronized (Configuration.class) {
            List<Configuration> live = new ArrayList<>(registry().keySet());
            CopyOnWriteArrayList<String> defaults = defaultResources();
            if (!defaults.equals(slotDefaults)) {
                // the job called addDefaultResource: undo it, and reload as addDefaultResource does
                defaults.clear();
                defaults.addAll(slotDefaults);
                live.forEach(Configuration::reloadConfiguration);
            }
            for (Configuration conf : live) {
                if (!SharedClasses.isShared(conf.getClassLoader())) {
                    conf.setClassLoader(SharedClasses.loader());
                }
            }
            for (Object info : deprecations().values()) {
                Fields.reset(info, DEPRECATION_ACCESSED, false);
            }
        }
        Map<?, ?> classCache = (Map<?, ?>) Fields.getStatic(Configuration.class, CLASS_CACHE);
        synchronized (classCache) {
            classCache.clear();
        }
    }

    @SuppressWarnings("unchecked")
    private static CopyOnWriteArrayList<String> defaultResources() {
        return (CopyOnWriteArrayList<String>) Fields.getStatic(Configuration.class, DEFAULT_RESOURCES);
    }

    @SuppressWarnings("unchecked")
    private static WeakHashMap<Configuration, Object> registry() {
        return (WeakHashMap<Configuration, Object>) Fields.getStatic(Configuration.class, REGISTRY);
    }

    private static Map<?, ?> deprecations() {
        return (Map<?, ?>) Fields.follow(Configuration.class, DEPRECATED_KEYS);
    }
}
