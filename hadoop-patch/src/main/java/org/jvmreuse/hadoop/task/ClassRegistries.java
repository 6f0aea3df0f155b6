package org.jvmreuse.hadoop.task;

import static org.jvmreuse.hadoop.names.HadoopNames.ClassRegistries.CACHES;
import static org.jvmreuse.hadoop.names.HadoopNames.ClassRegistries.FACTORY_REGISTRIES;
import static org.jvmreuse.hadoop.names.HadoopNames.ClassRegistries.SERIAL_FACTORY;
import static org.jvmreuse.hadoop.names.HadoopNames.ClassRegistries.STATIC_REGISTRIES;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.jvmreuse.hadoop.names.FieldName;

/**
 * Registries of classes that Hadoop's own class initialisers fill (WritableComparator.define in
 * Text, WritableFactories.setFactory in ReduceTask, ...) and that a job adds to. Emptying them
 * would lose entries no initialiser will add again, so only entries that refer to a run's
 * classes go; where such an entry replaced one the slot had before the run, that one comes back.
 * Pure caches, which a new JVM starts empty and which refill themselves, are emptied.
 * All the run's threads are gone when this runs, so nothing else touches these maps.
 */
final class ClassRegistries {
    /** Each registry's entries before the run, by the registry's identity. */
    private static final Map<Map<Object, Object>, Map<Object, Object>> SNAPSHOTS = new IdentityHashMap<>();

    private ClassRegistries() {
    }

    static void beforeRun() {
        SNAPSHOTS.clear();
        for (Map<Object, Object> registry : registries()) {
            SNAPSHOTS.put(registry, new HashMap<>(registry));
        }
    }

    static void afterRun() {
        for (Map<Object, Object> registry : registries()) {
            Map<Object, Object> earlier = SNAPSHOTS.getOrDefault(registry, Map.of());
            for (Map.Entry<Object, Object> e : new ArrayList<>(registry.entrySet())) {
                if (SharedClasses.isRunOwned(e.getKey()) || SharedClasses.isRunOwned(e.getValue())) {
                    registry.remove(e.getKey());
                    Object previous = earlier.get(e.getKey());
                    if (previous != null && !SharedClasses.isRunOwned(e.getKey())) {
                        registry.put(e.getKey(), previous);
                    }
                }
            }
        }
        SNAPSHOTS.clear();
        for (FieldName cache : CACHES) {
            SharedClasses.loaded(cache.owner()).ifPresent(c -> ((Map<?, ?>) Fields.getStatic(c, cache)).clear());
        }
        // holds the configuration it was made from (the run's io.serializations, and its loader)
        SharedClasses.loaded(SERIAL_FACTORY.owner()).ifPresent(c -> Fields.setStatic(c, SERIAL_FACTORY, null));
    }

    private static List<Map<Object, Object>> registries() {
        List<Map<Object, Object>> maps = new ArrayList<>();
        for (FieldName r : STATIC_REGISTRIES) {
            SharedClasses.loaded(r.owner()).ifPresent(c -> maps.add(map(Fields.getStatic(c, r))));
        }
        for (List<FieldName> r : FACTORY_REGISTRIES) {
            FieldName singleton = r.get(0);
            FieldName registry = r.get(1);
            SharedClasses.loaded(singleton.owner()).ifPresent(c ->
                    maps.add(map(Fields.get(Fields.getStatic(c, singleton), registry))));
        }
        return maps;
    }

    @SuppressWarnings("unchecked")
    private static Map<Object, Object> map(Object registry) {
        return (Map<Object, Object>) registry;
    }
}
