package org.jvmreuse.pool.slot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jvmreuse.pool.classpath.TaskClassLoader;

/**
 * The run loader's delegation: parent first, except that the run's entries listed before the
 * shared ones win over the shared library, as in one JVM with that class path (a Hadoop job with
 * mapreduce.job.user.classpath.first), but never over the JDK or the names the library keeps.
 */
class TaskClassLoaderTest {
    @TempDir
    static Path dir;
    private static Path sharedJar;
    private static Path userJar;
    private static final SharedPackages API_SHARED = new SharedPackages(List.of("api."));

    /** Two jars with the same classes and resource, each saying which jar it is. */
    @BeforeAll
    static void buildJars() throws IOException {
        sharedJar = jar("shared");
        userJar = jar("user");
    }

    private static Path jar(String who) throws IOException {
        Path src = Files.createDirectories(dir.resolve("src-" + who));
        Files.createDirectories(src.resolve("lib"));
        Files.createDirectories(src.resolve("api"));
        Files.writeString(src.resolve("lib/Thing.java"),
                "package lib; public class Thing { public static String who() { return \"" + who + "\"; } }");
        // Resolves Thing through its own loader: a user-first class sees the user's Thing.
        Files.writeString(src.resolve("lib/User.java"),
                "package lib; public class User { public static String thing() { return Thing.who(); } }");
        Files.writeString(src.resolve("api/Api.java"),
                "package api; public class Api { public static String who() { return \"" + who + "\"; } }");
        Path classes = Files.createDirectories(dir.resolve("classes-" + who));
        int rc = ToolProvider.getSystemJavaCompiler().run(null, null, null, "-d", classes.toString(),
                src.resolve("lib/Thing.java").toString(), src.resolve("lib/User.java").toString(),
                src.resolve("api/Api.java").toString());
        assertEquals(0, rc, "javac");
        Path jar = dir.resolve(who + ".jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            for (String name : List.of("lib/Thing.class", "lib/User.class", "api/Api.class")) {
                out.putNextEntry(new JarEntry(name));
                out.write(Files.readAllBytes(classes.resolve(name)));
                out.closeEntry();
            }
            out.putNextEntry(new JarEntry("conf.txt"));
            out.write(who.getBytes(StandardCharsets.UTF_8));
            out.closeEntry();
            // Not a class: were it defined instead of the JDK's, loading would fail.
            out.putNextEntry(new JarEntry("javax/sql/DataSource.class"));
            out.write(new byte[] {1, 2, 3});
            out.closeEntry();
        }
        return jar;
    }

    private static TaskClassLoader sharedLoader() {
        return new TaskClassLoader(List.of(sharedJar.toString()), ClassLoader.getPlatformClassLoader());
    }

    private static String call(ClassLoader loader, String className, String method) throws Exception {
        return (String) Class.forName(className, true, loader).getMethod(method).invoke(null);
    }

    private static String read(URL url) throws IOException {
        try (var in = url.openStream()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void entriesAfterTheSharedOnesComeAfterTheSharedLibrary() throws Exception {
        try (TaskClassLoader shared = sharedLoader();
             TaskClassLoader run = TaskClassLoader.forRun(List.of(), List.of(userJar.toString()), shared, API_SHARED)) {
            assertEquals("shared", call(run, "lib.Thing", "who"));
            assertEquals("shared", call(run, "lib.User", "thing"));
            assertEquals("shared", read(run.getResource("conf.txt")));
        }
    }

    @Test
    void entriesBeforeTheSharedOnesWinOverTheSharedLibrary() throws Exception {
        try (TaskClassLoader shared = sharedLoader();
             TaskClassLoader run = TaskClassLoader.forRun(List.of(userJar.toString()), List.of(), shared, API_SHARED)) {
            assertEquals("user", call(run, "lib.Thing", "who"));
            assertSame(run, Class.forName("lib.Thing", false, run).getClassLoader());
            assertEquals("user", call(run, "lib.User", "thing"), "a user-first class sees the user's classes");
            assertEquals("user", read(run.getResource("conf.txt")));
            List<String> all = new ArrayList<>();
            for (URL url : Collections.list(run.getResources("conf.txt"))) {
                all.add(read(url));
            }
            assertEquals(List.of("user", "shared"), all, "the class path's order");
        }
    }

    @Test
    void namesTheSharedLibraryKeepsAndTheJdkAlwaysComeFromThem() throws Exception {
        try (TaskClassLoader shared = sharedLoader();
             TaskClassLoader run = TaskClassLoader.forRun(List.of(userJar.toString()), List.of(), shared, API_SHARED)) {
            assertEquals("shared", call(run, "api.Api", "who"));
            Class<?> dataSource = run.loadClass("javax.sql.DataSource");
            assertSame(ClassLoader.getPlatformClassLoader(), dataSource.getClassLoader());
            assertSame(Object.class, run.loadClass("java.lang.Object"));
        }
    }

    @Test
    void aLaterEntryInsideAFirstDirectoryStaysLater() throws Exception {
        // $PWD comes first, job.jar/classes/ (inside it) after Hadoop's: the latter is not user-first.
        Path pwd = Files.createDirectories(dir.resolve("pwd"));
        Path classes = Files.createDirectories(pwd.resolve("job.jar/classes"));
        Files.writeString(classes.resolve("conf.txt"), "classes");
        try (TaskClassLoader shared = sharedLoader();
             TaskClassLoader run = TaskClassLoader.forRun(List.of(pwd.toString()), List.of(classes.toString()), shared,
                     API_SHARED)) {
            assertEquals("shared", read(run.getResource("conf.txt")));
            Files.writeString(pwd.resolve("conf.txt"), "pwd");
            assertEquals("pwd", read(run.getResource("conf.txt")));
        }
    }

    @Test
    void theRunsOwnEntriesSplitWhereTheSharedOnesBegin() {
        List<String> shared = List.of("/hadoop/common/*", "/hadoop/patch.jar");
        // Stock order: $PWD, Hadoop's, the job's.
        assertEquals(new RunClassPath(List.of("/pwd"), List.of("/pwd/job.jar/job.jar", "/pwd/*")),
                RunClassPath.of(List.of("/pwd", "/hadoop/common/*", "/pwd/job.jar/job.jar", "/pwd/*", "/hadoop/patch.jar"),
                        shared));
        // mapreduce.job.user.classpath.first: the job's before Hadoop's.
        assertEquals(new RunClassPath(List.of("/pwd", "/pwd/job.jar/job.jar", "/pwd/*"), List.of("/conf")),
                RunClassPath.of(List.of("/pwd", "/pwd/job.jar/job.jar", "/pwd/*", "/hadoop/common/*", "/conf",
                        "/hadoop/patch.jar"), shared));
        // Nothing shared: one parent-first loader, as before.
        assertEquals(new RunClassPath(List.of(), List.of("/a", "/b")), RunClassPath.of(List.of("/a", "/b"), List.of()));
    }

    @Test
    void aLibraryDeclaresThePackagesItKeeps() throws Exception {
        Path listed = Files.createDirectories(dir.resolve("declares/META-INF/jvmreuse"));
        Files.writeString(listed.resolve("shared-packages"), "# comment\norg.apache.hadoop.\n\none.Exact  # trailing\n");
        try (TaskClassLoader library = new TaskClassLoader(List.of(dir.resolve("declares").toString()),
                ClassLoader.getPlatformClassLoader())) {
            SharedPackages packages = SharedPackages.of(library);
            assertTrue(packages.test("org.apache.hadoop.mapred.YarnChild"));
            assertTrue(packages.test("one.Exact"));
            assertTrue(!packages.test("one.Exactly") && !packages.test("org.apache.commons.lang.StringUtils"));
        }
        assertNotNull(SharedPackages.NONE);
        assertTrue(!SharedPackages.NONE.test("org.apache.hadoop.X"));
    }
}
