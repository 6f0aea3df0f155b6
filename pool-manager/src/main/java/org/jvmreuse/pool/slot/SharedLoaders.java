package org.jvmreuse.pool.slot;

import java.io.IOException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jvmreuse.pool.ClassPathKey;
import org.jvmreuse.pool.PoolLog;

/**
 * The slot's loaders of shared (library) class path entries, kept across runs: a run that names
 * the same shared entries, unchanged on disk, finds their classes loaded and JIT-compiled. This
 * is the paper's split: Hadoop's classes stay, the job's are reloaded. Statics of shared classes
 * survive between such runs, so only libraries whose state is reset (or harmless) belong here.
 * The least recently used loader beyond {@link #CAPACITY} is closed.
 */
final class SharedLoaders {
    private static final int CAPACITY = 2;

    private final Map<String, TaskClassLoader> byKey = new LinkedHashMap<>(4, 0.75f, true);

    ClassLoader forEntries(List<String> shared) {
        if (shared.isEmpty()) {
            return ClassLoader.getPlatformClassLoader();
        }
        TaskClassLoader loader = byKey.computeIfAbsent(ClassPathKey.of(shared),
                key -> new TaskClassLoader(shared, ClassLoader.getPlatformClassLoader()));
        Iterator<TaskClassLoader> oldest = byKey.values().iterator();
        while (byKey.size() > CAPACITY) {
            TaskClassLoader evicted = oldest.next();
            oldest.remove();
            try {
                evicted.close();
            } catch (IOException e) {
                PoolLog.get().warn("closing an unused shared class loader: " + e);
            }
        }
        return loader;
    }
}
