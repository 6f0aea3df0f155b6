package org.jvmreuse.pool.slot.globals;

import java.lang.reflect.Field;
import java.util.HashMap;
import java.util.Map;
import org.jvmreuse.pool.jdk.JdkInternals;

/**
 * A JDK factory that can be set once per JVM and the static cache of what it made: the URL
 * stream handler factory and {@code URL}'s handler cache, the content handler factory and
 * {@code URLConnection}'s. After a run the factory is put back (so the next run can set it again)
 * and the cache holds exactly what it held before, so no handler the run caused to be cached
 * (from its own factory, or found through its {@code java.protocol.handler.pkgs}) outlives it.
 * The caches hold a handful of protocols, so copying one costs well under a microsecond.
 */
final class CachedRegistry implements GlobalState {
    private final String name;
    private final Field factory;
    private final Map<Object, Object> cache;

    @SuppressWarnings("unchecked")
    CachedRegistry(String name, String className, String factoryField, String cacheField) {
        this.name = name;
        this.factory = factoryField == null ? null : JdkInternals.field(className, factoryField);
        this.cache = (Map<Object, Object>) JdkInternals.get(JdkInternals.field(className, cacheField), null);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Snapshot capture() {
        Object before = factory == null ? null : JdkInternals.get(factory, null);
        Map<Object, Object> cached;
        synchronized (cache) { // a Hashtable's lock; a ConcurrentHashMap copies without it
            cached = new HashMap<>(cache);
        }
        return runLoader -> {
            if (factory != null && JdkInternals.get(factory, null) != before) {
                JdkInternals.set(factory, null, before);
            }
            synchronized (cache) {
                if (!sameEntries(cached)) {
                    cache.clear();
                    cache.putAll(cached);
                }
            }
            return null;
        };
    }

    private boolean sameEntries(Map<Object, Object> cached) {
        if (cache.size() != cached.size()) {
            return false;
        }
        for (Map.Entry<Object, Object> entry : cached.entrySet()) {
            if (cache.get(entry.getKey()) != entry.getValue()) {
                return false;
            }
        }
        return true;
    }
}
