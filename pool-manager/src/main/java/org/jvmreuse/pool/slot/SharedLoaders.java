package org.jvmreuse.pool.slot;

import java.io.File;
import java.io.IOException;
import java.net.URL;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.jvmreuse.boot.ServicePort;
import org.jvmreuse.pool.classpath.ClassPathKey;
import org.jvmreuse.pool.classpath.TaskClassLoader;
import org.jvmreuse.pool.common.PoolLog;

/**
 * The slot's loaders of shared (library) class path entries, kept across runs: a run that names
 * the same shared entries, unchanged on disk, finds their classes loaded and JIT-compiled. This
 * is the paper's split: Hadoop's classes stay, the job's are reloaded. Statics of shared classes
 * survive between such runs, so only libraries whose state is reset (by their {@link RunHooks})
 * or harmless belong here. The least recently used loader beyond {@link #CAPACITY} is closed.
 * A library's hook classes may also attach to the slot's {@link ServicePort} (its MPI).
 */
final class SharedLoaders {
    private static final int CAPACITY = 2;
    private static final SharedLibrary NONE = new SharedLibrary(ClassLoader.getPlatformClassLoader(), RunHooks.NONE,
            SharedPackages.NONE);

    /** A shared loader, the resets its libraries declare, and the classes a run must take from it. */
    record SharedLibrary(ClassLoader loader, RunHooks hooks, SharedPackages packages) { }

    private final Map<String, SharedLibrary> byKey = new LinkedHashMap<>(4, 0.75f, true);
    private final ServicePort port;
    private final Consumer<Thread> slotThreads;

    /** {@code slotThreads}: how a library's hooks mark a thread they made to outlive runs as the slot's. */
    SharedLoaders(ServicePort port, Consumer<Thread> slotThreads) {
        this.port = port;
        this.slotThreads = slotThreads;
    }

    SharedLibrary forEntries(List<String> shared) throws IOException {
        if (shared.isEmpty()) {
            return NONE;
        }
        String key = ClassPathKey.of(shared);
        SharedLibrary library = byKey.get(key);
        if (library == null) {
            TaskClassLoader loader = new TaskClassLoader(shared, ClassLoader.getPlatformClassLoader());
            try {
                library = new SharedLibrary(loader, RunHooks.of(loader, port, slotThreads), SharedPackages.of(loader));
            } catch (IOException | RuntimeException e) {
                close(loader);
                throw e;
            }
            byKey.put(key, library);
            PoolLog.get().info("new shared class loader for " + shared + " (" + byKey.size() + " held)");
        }
        Iterator<SharedLibrary> oldest = byKey.values().iterator();
        while (byKey.size() > CAPACITY) {
            SharedLibrary evicted = oldest.next();
            oldest.remove();
            evicted.hooks().close();
            close((TaskClassLoader) evicted.loader());
        }
        return library;
    }

    /** The unnamed modules of the shared loaders, which outlive runs. */
    List<Module> unnamedModules() {
        return byKey.values().stream().map(library -> library.loader().getUnnamedModule()).toList();
    }

    /** The jar files the shared loaders hold open for the slot's lifetime. */
    Set<String> openJars() {
        Set<String> jars = new HashSet<>();
        for (SharedLibrary library : byKey.values()) {
            for (URL url : ((TaskClassLoader) library.loader()).getURLs()) {
                if ("file".equals(url.getProtocol())) {
                    jars.add(new File(url.getPath()).getAbsolutePath());
                }
            }
        }
        return jars;
    }

    private static void close(TaskClassLoader loader) {
        try {
            loader.close();
        } catch (IOException e) {
            PoolLog.get().warn("closing an unused shared class loader: " + e);
        }
    }
}
