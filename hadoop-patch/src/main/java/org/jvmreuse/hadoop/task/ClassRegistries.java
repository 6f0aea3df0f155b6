package org.jvmreuse.hadoop.task;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Registries of classes that Hadoop's own class initialisers fill (WritableComparator.define in
 * Text, WritableFactories.setFactory in ReduceTask, ...) and that a job adds to. Emptying them
 * would lose entries no initialiser will add again, so only entries that refer to a run's
 * classes go; where such an entry replaced one the slot had before the run, that one comes back.
 * Pure caches, which a new JVM starts empty and which refill themselves, are emptied.
 * All the run's threads are gone when this runs, so nothing else touches these maps.
 */
final class ClassRegistries {
    /** Static maps: class name, field. */
    private static final String[][] STATIC_REGISTRIES = {
        {"org.apache.hadoop.io.WritableComparator", "comparators"},
        {"org.apache.hadoop.io.WritableFactories", "CLASS_TO_FACTORY"},
        {"org.apache.hadoop.io.WritableName", "NAME_TO_CLASS"},
        {"org.apache.hadoop.io.WritableName", "CLASS_TO_NAME"},
        {"org.apache.hadoop.ipc.RPC", "PROTOCOL_ENGINES"},
        {"org.apache.hadoop.ipc.Server", "PROTOCOL_CACHE"},
        {"org.apache.hadoop.mapred.join.Parser$Node", "nodeCstrMap"},
        {"org.apache.hadoop.mapred.join.Parser$Node", "rrCstrMap"},
        {"org.apache.hadoop.mapreduce.lib.join.Parser$Node", "nodeCstrMap"},
        {"org.apache.hadoop.mapreduce.lib.join.Parser$Node", "rrCstrMap"},
    };
    /** Maps of YARN's record and RPC factory singletons (field "self"): class name, field. */
    private static final String[][] FACTORY_REGISTRIES = {
        {"org.apache.hadoop.yarn.factories.impl.pb.RecordFactoryPBImpl", "cache"},
        {"org.apache.hadoop.yarn.factories.impl.pb.RpcClientFactoryPBImpl", "cache"},
        {"org.apache.hadoop.yarn.factories.impl.pb.RpcServerFactoryPBImpl", "serviceCache"},
        {"org.apache.hadoop.yarn.factories.impl.pb.RpcServerFactoryPBImpl", "protoCache"},
    };
    /** Caches: class name, field. */
    private static final String[][] CACHES = {
        {"org.apache.hadoop.util.ReflectionUtils", "CONSTRUCTOR_CACHE"},
        {"org.apache.hadoop.fs.AbstractFileSystem", "CONSTRUCTOR_CACHE"},
    };

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
        for (String[] cache : CACHES) {
            SharedClasses.loaded(cache[0]).ifPresent(c -> ((Map<?, ?>) Fields.getStatic(c, cache[1])).clear());
        }
        // holds the configuration it was made from (the run's io.serializations, and its loader)
        SharedClasses.loaded("org.apache.hadoop.util.ReflectionUtils").ifPresent(c ->
                Fields.setStatic(c, "serialFactory", null));
    }

    private static List<Map<Object, Object>> registries() {
        List<Map<Object, Object>> maps = new ArrayList<>();
        for (String[] r : STATIC_REGISTRIES) {
            SharedClasses.loaded(r[0]).ifPresent(c -> maps.add(map(Fields.getStatic(c, r[1]))));
        }
        for (String[] r : FACTORY_REGISTRIES) {
            SharedClasses.loaded(r[0]).ifPresent(c -> maps.add(map(Fields.get(Fields.getStatic(c, "self"), r[1]))));
        }
        return maps;
    }

    @SuppressWarnings("unchecked")
    private static Map<Object, Object> map(Object registry) {
        return (Map<Object, Object>) registry;
    }
}
