package org.jvmreuse.hadoop.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.lang.ref.WeakReference;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.ServiceLoader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jvmreuse.boot.RunHook;

/**
 * The slot's layout: Hadoop and this jar in a shared loader of their own (parent: the platform
 * loader), initialised outside runs, and each run's loader a child of it.
 */
class SlotLayoutTest {
    private final Properties saved = (Properties) System.getProperties().clone();

    @AfterEach
    void restoreProperties() {
        System.setProperties(saved);
    }

    @Test
    void runsInASharedLoaderAreResetAndCollected(@TempDir Path dir) throws Exception {
        System.setProperty("job.dir", dir.toString());
        Files.createDirectories(dir.resolve("in"));
        Files.writeString(dir.resolve("in/words.txt"), "x y x\n".repeat(10));
        try (URLClassLoader shared = new SharedLoader(testClassPath())) {
            List<RunHook> hooks = ServiceLoader.load(RunHook.class, shared).stream().map(ServiceLoader.Provider::get).toList();
            assertEquals(1, hooks.size(), "the jar's run hooks: " + hooks);
            assertEquals(HadoopTaskReset.class.getName(), hooks.get(0).getClass().getName());
            assertSame(shared, hooks.get(0).getClass().getClassLoader());
            for (String job : List.of("YarnChildLike", "WordCount", "YarnChildLike", "WordCount")) {
                RunLoader loader = new RunLoader(shared);
                Object result = new SlotRun(loader, hooks.get(0)).run(true, loader.newJob(job));
                if (job.equals("WordCount")) {
                    assertEquals(10, ((long[]) result)[2], "map input records");
                } else {
                    assertEquals("container_1_0001_01_000002 true", result);
                }
                WeakReference<ClassLoader> ref = new WeakReference<>(loader);
                loader = null;
                assertTrue(Collected.within(ref, 20_000), "the run's class loader is still reachable after " + job);
            }
        }
    }

    /**
     * Hadoop and this jar over the platform loader, as a slot's shared loader; the boot contracts
     * come from the test's loader, as in a slot from the boot class path every loader sees.
     */
    private static final class SharedLoader extends URLClassLoader {
        SharedLoader(URL[] classPath) {
            super("shared", classPath, ClassLoader.getPlatformClassLoader());
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (name.startsWith(RunHook.class.getPackageName() + ".")) {
                return RunHook.class.getClassLoader().loadClass(name);
            }
            return super.loadClass(name, resolve);
        }
    }

    private static URL[] testClassPath() throws Exception {
        String path = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<URL> urls = new ArrayList<>();
        for (String entry : path.split(File.pathSeparator)) {
            urls.add(new File(entry).toURI().toURL());
        }
        return urls.toArray(new URL[0]);
    }
}
