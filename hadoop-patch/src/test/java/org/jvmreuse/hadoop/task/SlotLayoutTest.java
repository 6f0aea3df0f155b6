package org.jvmreuse.hadoop.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
        try (URLClassLoader shared = new URLClassLoader("shared", testClassPath(), ClassLoader.getPlatformClassLoader())) {
            Class<?> hooks = Class.forName(HadoopTaskReset.class.getName(), true, shared);
            for (String job : List.of("YarnChildLike", "WordCount", "YarnChildLike", "WordCount")) {
                RunLoader loader = new RunLoader(shared);
                Object result = new SlotRun(loader, hooks).run(true, loader.newJob(job));
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

    private static URL[] testClassPath() throws Exception {
        String path = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<URL> urls = new ArrayList<>();
        for (String entry : path.split(File.pathSeparator)) {
            urls.add(new File(entry).toURI().toURL());
        }
        return urls.toArray(new URL[0]);
    }
}
