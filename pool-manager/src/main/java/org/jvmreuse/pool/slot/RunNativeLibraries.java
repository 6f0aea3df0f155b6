package org.jvmreuse.pool.slot;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jvmreuse.pool.jdk.JdkInternals;

/**
 * The JNI libraries a run's class loader loaded, and their unloading before the next run. The
 * JDK lets one library file be loaded by one class loader at a time ("already loaded in another
 * classloader") and unloads it (JNI_OnUnload, dlclose) only once its loader has been collected,
 * through a cleaner. So after such a run the slot collects the run's loader and waits for the
 * cleaner; then the next run's load is a fresh dlopen with fresh native statics, as in a new JVM.
 * A library that stays loaded (its loader still referenced, e.g. by a JNI global reference) or
 * stays mapped after dlclose (glibc keeps libraries with unique symbols or -z nodelete) would
 * fail or carry its state into the next run, so the slot retires. Runs that loaded no library
 * pay one field read.
 */
final class RunNativeLibraries {
    private static final int COLLECTIONS = 8;
    private static final long CLEANER_WAIT_MILLIS = 50;
    private static final VarHandle LOADER_LIBRARIES = loaderLibraries();
    private static final Field LIBRARIES = JdkInternals.field("jdk.internal.loader.NativeLibraries", "libraries");
    /** Every library file loaded by a class loader not yet collected (a HashSet in 17, concurrent in 25). */
    private static final Set<?> LOADED = (Set<?>) JdkInternals.get(
            JdkInternals.field("jdk.internal.loader.NativeLibraries", "loadedLibraryNames"), null);

    private RunNativeLibraries() {
    }

    /** The files (canonical paths) of the libraries {@code loader} loaded. */
    static List<String> loadedBy(ClassLoader loader) {
        Map<?, ?> libraries = (Map<?, ?>) JdkInternals.get(LIBRARIES, LOADER_LIBRARIES.get(loader));
        if (libraries.isEmpty()) {
            return List.of();
        }
        List<String> names = new ArrayList<>();
        libraries.keySet().forEach(name -> names.add(name.toString()));
        return names;
    }

    /**
     * Collects the run's loader and waits for its libraries to be unloaded; null once they are,
     * else why the slot cannot load them afresh. The caller must hold no reference to the loader.
     */
    static String awaitUnloaded(List<String> libraries) throws InterruptedException {
        List<String> loaded = stillLoaded(libraries);
        for (int i = 0; i < COLLECTIONS && !loaded.isEmpty(); i++) {
            System.gc();
            long deadline = System.currentTimeMillis() + CLEANER_WAIT_MILLIS;
            while (!loaded.isEmpty() && System.currentTimeMillis() < deadline) {
                Thread.sleep(1);
                loaded = stillLoaded(libraries);
            }
        }
        if (!loaded.isEmpty()) {
            return "its class loader was not collected, so its native libraries stay loaded " + loaded
                    + " and a new run could not load them again";
        }
        List<String> mapped = stillMapped(libraries);
        if (!mapped.isEmpty()) {
            return "its native libraries stay mapped after unloading (dlclose keeps them) " + mapped
                    + ", so their static state would carry over to the next run";
        }
        return null;
    }

    /** ClassLoader's fields are hidden from reflection (getDeclaredField), not from a private lookup. */
    private static VarHandle loaderLibraries() {
        try {
            return MethodHandles.privateLookupIn(ClassLoader.class, MethodHandles.lookup()).findVarHandle(
                    ClassLoader.class, "libraries", Class.forName("jdk.internal.loader.NativeLibraries"));
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("cannot reach java.lang.ClassLoader.libraries in Java " + Runtime.version()
                    + " (is the slot JVM started by the pool's launcher, -javaagent:pool-manager-*-launcher.jar?)", e);
        }
    }

    private static List<String> stillLoaded(List<String> libraries) {
        synchronized (LOADED) { // the lock the JDK 17 code takes
            return libraries.stream().filter(LOADED::contains).toList();
        }
    }

    private static List<String> stillMapped(List<String> libraries) {
        String maps;
        try {
            maps = Files.readString(Path.of("/proc/self/maps"));
        } catch (IOException e) {
            return List.of(); // not Linux: the JDK's unloading is all there is to check
        }
        return libraries.stream().filter(name -> maps.contains(" " + name + "\n")).toList();
    }
}
