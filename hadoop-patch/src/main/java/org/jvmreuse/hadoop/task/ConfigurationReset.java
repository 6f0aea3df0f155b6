package org.jvmreuse.hadoop.task;

import static org.jvmreuse.hadoop.names.HadoopNames.ConfigurationReset.CLASS_CACHE;
import static org.jvmreuse.hadoop.names.HadoopNames.ConfigurationReset.DEFAULT_RESOURCES;
import static org.jvmreuse.hadoop.names.HadoopNames.ConfigurationReset.DEPRECATED_KEYS;
import static org.jvmreuse.hadoop.names.HadoopNames.ConfigurationReset.DEPRECATION_ACCESSED;
import static org.jvmreuse.hadoop.names.HadoopNames.ConfigurationReset.DEPRECATION_MESSAGE;
import static org.jvmreuse.hadoop.names.HadoopNames.ConfigurationReset.DEPRECATION_NEW_KEYS;
import static org.jvmreuse.hadoop.names.HadoopNames.ConfigurationReset.DEPRECATION_STATE;
import static org.jvmreuse.hadoop.names.HadoopNames.ConfigurationReset.REGISTRY;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.conf.Configuration;
import org.jvmreuse.hadoop.names.ClassName;
import org.jvmreuse.hadoop.names.FieldName;

/**
 * Configuration's statics: each run starts from the default resources and deprecations that
 * Configuration and JobConf register (every task makes a JobConf first; 2.x's and 3.x's JobConf
 * also adds yarn-default.xml and yarn-site.xml), as a new task JVM does; what YARN's and HDFS's
 * configurations register when first used ({@link Registrations}) is added by the run that first
 * uses them (the slot's first-use actions) and taken back after it, as is what the job
 * registered. The class cache empties, deprecation warnings are due again once per task, and
 * every Configuration that outlives the run (held by a shared static such as Limits.conf or a
 * YARN record factory, created while the task's loader was the context loader) is moved to the
 * shared loader so it no longer holds the task's.
 */
final class ConfigurationReset {
    private static List<String> slotDefaults = List.of();
    private static List<Object> slotDeprecations = List.of();

    private ConfigurationReset() {
    }

    /** Called once, when the slot has initialised Configuration and JobConf: what every run starts from. */
    static void recordSlotDefaults() {
        synchronized (Configuration.class) {
            slotDefaults = List.copyOf(defaultResources());
            slotDeprecations = deprecationState();
        }
    }

    /**
     * Initialises {@code c} (with the shared loader) and returns what its initialiser added to the
     * slot's defaults, which are then put back; called once at the slot's start, after {@link #recordSlotDefaults}.
     */
    static Registrations registrationsOf(ClassName c) throws ClassNotFoundException {
        synchronized (Configuration.class) {
            Map<String, Object> before = new HashMap<>(deprecations());
            Class.forName(c.name(), true, SharedClasses.loader());
            List<String> resources = new ArrayList<>(defaultResources());
            resources.removeAll(slotDefaults);
            List<Deprecations.Deprecation> added = new ArrayList<>();
            deprecations().forEach((key, info) -> {
                if (before.get(key) != info) {
                    added.add(new Deprecations.Deprecation(key, (String[]) Fields.get(info, DEPRECATION_NEW_KEYS),
                            (String) Fields.get(info, DEPRECATION_MESSAGE)));
                }
            });
            restoreSlotDefaults(new ArrayList<>(registry().keySet()));
            return new Registrations(resources, new Deprecations(added));
        }
    }

    static void afterRun() {
        synchronized (Configuration.class) {
            List<Configuration> live = new ArrayList<>(registry().keySet());
            restoreSlotDefaults(live);
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

    /** Takes back what the run (its first uses, its job) registered; reloads as addDefaultResource does. */
    private static void restoreSlotDefaults(List<Configuration> live) {
        CopyOnWriteArrayList<String> defaults = defaultResources();
        if (!defaults.equals(slotDefaults)) {
            defaults.clear();
            defaults.addAll(slotDefaults);
            live.forEach(Configuration::reloadConfiguration);
        }
        for (int i = 0; i < DEPRECATION_STATE.size(); i++) {
            Object saved = slotDeprecations.get(i);
            // 2.x's maps are changed in place by a run: each run gets a copy
            Fields.resetStatic(Configuration.class, DEPRECATION_STATE.get(i), saved instanceof Map<?, ?> map ? new HashMap<>(map) : saved);
        }
    }

    /** 2.x's maps (copied) or 3.x's DeprecationContext (never changed, only replaced). */
    private static List<Object> deprecationState() {
        List<Object> state = new ArrayList<>();
        for (FieldName name : DEPRECATION_STATE) {
            Object value = Fields.getStatic(Configuration.class, name);
            state.add(value instanceof Map<?, ?> map ? new HashMap<>(map) : ((AtomicReference<?>) value).get());
        }
        return List.copyOf(state);
    }

    @SuppressWarnings("unchecked")
    private static CopyOnWriteArrayList<String> defaultResources() {
        return (CopyOnWriteArrayList<String>) Fields.getStatic(Configuration.class, DEFAULT_RESOURCES);
    }

    @SuppressWarnings("unchecked")
    private static WeakHashMap<Configuration, Object> registry() {
        return (WeakHashMap<Configuration, Object>) Fields.getStatic(Configuration.class, REGISTRY);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> deprecations() {
        return (Map<String, Object>) Fields.follow(Configuration.class, DEPRECATED_KEYS);
    }
}
