package org.jvmreuse.shuffle.reduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A reducer outside any pool (a stock YARN container: no pool-manager boot jar, so no
 * org.jvmreuse.boot anywhere) still loads the MPI shuffle's plug-in and asks {@link SlotLink}
 * for its slot's link; none is attached, and it shuffles over HTTP. Here that reducer
 * ({@link StockReduce}) runs in a class loader that has this module, Hadoop and the rest of the
 * test class path but not org.jvmreuse.boot: the boot jar is left out, and the loader's parent
 * refuses, and records, every request for a class of that package. The shuffle runs through with
 * {@code MpiShuffle} as its plug-in, {@code SlotLink.current()} found by reflection (as a task
 * could, see ShuffleSnoopJob) is null, no class of this module that the reducer loaded names a
 * boot type in its fields or signatures (reflection on it would fail), and not one class of
 * org.jvmreuse.boot was asked for. A class that does name them (the slot's {@link PortLink})
 * fails that check in the same loader.
 */
class StockReducerTest {
    private static final String BOOT = "org.jvmreuse.boot.";

    @TempDir
    Path dir;

    @Test
    void aReducerOutsideAPoolRunsWithoutTheBootContracts() throws Exception {
        List<String> refused = Collections.synchronizedList(new ArrayList<>());
        ClassLoader noBoot = new ClassLoader("no-org.jvmreuse.boot", ClassLoader.getPlatformClassLoader()) {
            @Override
            protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
                if (name.startsWith(BOOT)) {
                    refused.add(name);
                    throw new ClassNotFoundException(name + ": there is no org.jvmreuse.boot outside a pool");
                }
                return super.loadClass(name, resolve);
            }
        };
        URL classes = MpiShuffle.class.getProtectionDomain().getCodeSource().getLocation();
        List<String> ours = Collections.synchronizedList(new ArrayList<>());
        Set<Thread> before = Thread.getAllStackTraces().keySet();
        // Not closed: Hadoop's shutdown hook, registered in this loader, loads classes from it at exit.
        URLClassLoader stock = new URLClassLoader("stock-container", classPathWithoutBoot(), noBoot) {
            @Override
            protected Class<?> findClass(String name) throws ClassNotFoundException {
                Class<?> found = super.findClass(name);
                if (classes.equals(found.getProtectionDomain().getCodeSource().getLocation())) {
                    ours.add(name);
                }
                return found;
            }
        };
        assertThrows(ClassNotFoundException.class, () -> Class.forName(BOOT + "ServicePort", false, stock));
        refused.clear();

        Thread self = Thread.currentThread();
        ClassLoader context = self.getContextClassLoader();
        self.setContextClassLoader(stock); // a container's application class loader, where Hadoop finds the plug-in
        List<?> result;
        Object link;
        try {
            result = (List<?>) call(stock.loadClass(StockReduce.class.getName()).getMethod("run", String.class),
                    dir.toString());
            Method current = stock.loadClass(SlotLink.class.getName()).getDeclaredMethod("current");
            current.setAccessible(true);
            link = call(current);
        } finally {
            self.setContextClassLoader(context);
        }
        Class<?> plugin = (Class<?>) result.get(0);
        assertEquals(MpiShuffle.class.getName(), plugin.getName());
        assertSame(stock, plugin.getClassLoader(), "the plug-in of the loader without org.jvmreuse.boot ran");
        assertEquals(List.of(0L, 0L), result.subList(1, 3), "records merged, maps shuffled");
        assertNull(link, "no slot link outside a pool");
        assertTrue(ours.containsAll(List.of(MpiShuffle.class.getName(), SlotLink.class.getName())), "loaded: " + ours);

        for (String name : List.copyOf(ours)) {
            Class<?> type = Class.forName(name, false, stock);
            try {
                type.getDeclaredFields();
                type.getDeclaredMethods();
                type.getDeclaredConstructors();
            } catch (LinkageError e) {
                fail(name + ", which a reducer outside a pool loads, names a type it cannot have: " + e, e);
            }
        }
        assertEquals(List.of(), refused, "classes of org.jvmreuse.boot that a reducer outside a pool asked for");

        // The check itself: a class that does name them (only a slot loads it) fails it here.
        Class<?> slotOnly = Class.forName(PortLink.class.getName(), false, stock);
        assertThrows(NoClassDefFoundError.class, slotOnly::getDeclaredMethods);
        assertFalse(refused.isEmpty());
        assertEquals(Set.of(), threadsLeft(before), "threads the stock reducer left");
    }

    /** Calls {@code method} (static) and passes on what it throws. */
    private static Object call(Method method, Object... args) throws Exception {
        try {
            return method.invoke(null, args);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof Exception cause) {
                throw cause;
            }
            throw new AssertionError(e.getCause());
        }
    }

    /** This JVM's class path without what holds org.jvmreuse.boot (pool-manager's boot jar); it held some. */
    private static URL[] classPathWithoutBoot() throws IOException {
        List<URL> kept = new ArrayList<>();
        List<String> left = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (entry.isEmpty()) {
                continue;
            }
            Path path = Path.of(entry);
            if (holdsBoot(path)) {
                left.add(entry);
            } else {
                kept.add(path.toUri().toURL());
            }
        }
        assertFalse(left.isEmpty(), "the test class path has org.jvmreuse.boot: " + System.getProperty("java.class.path"));
        return kept.toArray(URL[]::new);
    }

    private static boolean holdsBoot(Path entry) throws IOException {
        if (Files.isDirectory(entry)) {
            return Files.isDirectory(entry.resolve(BOOT.replace('.', '/')));
        }
        if (!Files.isRegularFile(entry)) {
            return false;
        }
        try (JarFile jar = new JarFile(entry.toFile())) {
            return jar.stream().anyMatch(e -> e.getName().startsWith(BOOT.replace('.', '/')));
        }
    }

    /** Threads started since {@code before} that are still alive after up to 5 s. */
    private static Set<String> threadsLeft(Set<Thread> before) throws InterruptedException {
        Set<String> left = Set.of();
        for (long deadline = System.nanoTime() + 5_000_000_000L; System.nanoTime() < deadline; Thread.sleep(50)) {
            left = Thread.getAllStackTraces().keySet().stream().filter(t -> !before.contains(t) && t.isAlive())
                    .map(Thread::getName).filter(n -> !n.startsWith("process reaper")).collect(Collectors.toSet());
            if (left.isEmpty()) {
                break;
            }
        }
        return left;
    }
}
