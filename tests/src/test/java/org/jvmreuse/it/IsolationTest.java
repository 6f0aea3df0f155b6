package org.jvmreuse.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One slot, so every run here lands in the same JVM as the one before it. */
class IsolationTest extends OneSlotPoolTest {
    @Test
    void staticsStartFreshEveryRun() throws Exception {
        for (int i = 0; i < 10; i++) {
            Pool.Result result = pool.program("StaticCounter");
            assertEquals(0, result.code(), result.toString());
            assertEquals("1\n", result.out());
            assertTrue(result.err().contains("running in slot 0"), result.err());
        }
    }

    /**
     * A JNI library loaded by the run's class loader, found on the run's java.library.path (its
     * -D, or its LD_LIBRARY_PATH as java derives it) or loaded by absolute path, loads again in
     * every run on the slot, with fresh native statics: what a new JVM prints.
     */
    @Test
    void nativeLibrariesLoadAfreshEveryRun(@TempDir Path dir) throws Exception {
        Path library = NativeCounterLibrary.build(dir);
        String program = "org.jvmreuse.it.programs.NativeCounter";
        Map<List<String>, Map<String, String>> ways = new java.util.LinkedHashMap<>();
        ways.put(List.of("-Djava.library.path=" + dir, "-cp", Pool.PROGRAMS, program, "loadLibrary"), Map.of());
        ways.put(List.of("-cp", Pool.PROGRAMS, program, "loadLibrary"), Map.of("LD_LIBRARY_PATH", dir.toString()));
        ways.put(List.of("-cp", Pool.PROGRAMS, program, "load", library.toString()), Map.of());
        for (Map.Entry<List<String>, Map<String, String>> way : ways.entrySet()) {
            Pool.Result stock = inNewJvm(way.getKey(), way.getValue());
            assertEquals(0, stock.code(), stock.toString());
            assertTrue(stock.out().endsWith(" counter=1\n"), stock.toString());
            for (int i = 1; i <= 3; i++) {
                Pool.Result run = pool.run(way.getKey(), way.getValue(), null);
                assertEquals(0, run.code(), "run " + i + " of " + way + ": " + run);
                assertEquals(stock.out(), run.out(), "run " + i + " of " + way);
                assertTrue(run.err().contains("running in slot 0"), run.err());
            }
        }
        assertTrue(pool.status().contains("retired 0"), pool.status());
    }

    @Test
    void propertiesEnvironmentDirectoryAndHandlersDoNotCarryOver(@TempDir Path first, @TempDir Path second)
            throws Exception {
        Pool.Result one = pool.run(List.of("-Dprobe.prop=given", "-cp", Pool.PROGRAMS,
                "org.jvmreuse.it.programs.StateProbe"), Map.of("PROBE_ENV", "from-first"), first);
        assertEquals(0, one.code(), one.toString());
        assertTrue(one.out().contains("prop=given\n"), one.out());
        assertTrue(one.out().contains("env=from-first\n"), one.out());
        assertTrue(one.out().contains("envmap=from-first\n"), one.out());
        assertTrue(one.out().contains("user.dir=" + first + "\n"), one.out());
        assertTrue(one.out().contains("file=" + first.resolve("rel.txt") + "\n"), one.out());
        assertTrue(one.out().contains("nio=" + first.resolve("rel.txt") + "\n"), one.out());
        assertTrue(one.out().contains("classpath=" + Pool.PROGRAMS + "\n"), one.out());
        assertTrue(one.out().contains("newprop=leaked\n"), one.out());
        assertTrue(Files.exists(first.resolve("rel.txt")), "relative write went to the run's directory");

        Pool.Result two = pool.run(List.of("-cp", Pool.PROGRAMS, "org.jvmreuse.it.programs.StateProbe"), Map.of(), second);
        assertEquals(0, two.code(), two.toString());
        assertTrue(two.out().contains("prop=null\n"), two.out());
        assertTrue(two.out().contains("env=null\n"), two.out());
        assertTrue(two.out().contains("envmap=null\n"), two.out());
        assertTrue(two.out().contains("user.dir=" + second + "\n"), two.out());
        assertTrue(two.out().contains("nio=" + second.resolve("rel.txt") + "\n"), two.out());
        assertTrue(two.out().contains("handler=null\n"), two.out());
        assertFalse(two.out().contains("locale=ja_JP"), two.out());
        assertTrue(Files.exists(second.resolve("rel.txt")));
    }

    @Test
    void leftoverThreadsAreStoppedAndLeftOpenFilesClosed(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("left-open.bin");
        Pool.Result leave = pool.program("Leaker", "leave", file.toString());
        assertEquals(0, leave.code(), leave.toString());
        Pool.Result check = pool.program("Leaker", "check", file.toString());
        assertEquals(0, check.code(), check.toString());
        assertTrue(check.err().contains("running in slot 0"), "same slot: " + check.err());
        assertTrue(check.out().contains("leaker-threads=0\n"), check.out());
        assertTrue(check.out().contains("file-open=false\n"), check.out());
    }

    /**
     * JDK-wide registries and settings (java.util.logging, JDBC, MBeans and MXBean settings,
     * signal handlers, the common pool and JDK threads that ran the program's code, thread
     * defaults) changed in one run, first with JDK objects, then with the program's own: the next
     * run in the slot sees them as a new JVM shows them.
     */
    @Test
    void jdkWideStateIsAsInANewJvmInTheNextRun() throws Exception {
        Pool.Result fresh = Pool.exec(List.of(Jdks.DEFAULT, "-cp", Pool.PROGRAMS, "org.jvmreuse.it.programs.JdkStateProbe",
                "probe"), Map.of(), null, 60);
        assertEquals(0, fresh.code(), fresh.toString());
        for (String mode : List.of("change", "register")) {
            Pool.Result changed = pool.program("JdkStateProbe", mode);
            assertEquals(0, changed.code(), changed.toString());
            Pool.Result probe = pool.program("JdkStateProbe", "probe");
            assertEquals(0, probe.code(), probe.toString());
            assertTrue(probe.err().contains("running in slot 0"), "same slot: " + probe.err());
            assertEquals(fresh.out(), probe.out(), "after a run in mode " + mode);
        }
    }

    /**
     * The system class loader a run sees holds the run's class path, as under java, not the
     * pool's (whose classes a run could otherwise load and use, a thread factory of the slot's,
     * say); after the run it is the pool's again.
     */
    @Test
    void theSystemClassLoaderIsTheRunsClassPath() throws Exception {
        List<String> probe = List.of("-cp", Pool.PROGRAMS, "org.jvmreuse.it.programs.SystemLoaderProbe",
                "org.jvmreuse.pool.common.PoolThreads", "org.jvmreuse.it.programs.Echo");
        Pool.Result stock = inNewJvm(probe, Map.of());
        assertEquals("own class from the system class loader: true\norg.jvmreuse.pool.common.PoolThreads: not found\n"
                + "org.jvmreuse.it.programs.Echo: loads\n", stock.out(), stock.toString());
        for (int i = 0; i < 2; i++) {
            Pool.Result slot = pool.run(probe.toArray(String[]::new));
            assertEquals(stock.out(), slot.out(), slot.toString());
            assertTrue(slot.err().contains("running in slot 0"), slot.err());
        }
    }

    /**
     * Issue 27: a run is handed pool objects (its thread group, its class loader, the slot's frames
     * under its main) and through their loaders reaches any pool class; in the pool's named module,
     * which exports nothing, none of their members can be made accessible. Before, with the pool on
     * the class path, every member of every pool class could.
     */
    @Test
    void thePoolsClassesARunIsHandedAreNamesOnly() throws Exception {
        List<String> probe = List.of("-cp", Pool.PROGRAMS, "org.jvmreuse.it.programs.PoolReach",
                "org.jvmreuse.pool.common.PoolThreads", "org.jvmreuse.pool.slot.SlotRuntime");
        Pool.Result stock = inNewJvm(probe, Map.of());
        assertEquals("pool members usable: 0\n", stock.out(), stock.toString());
        Pool.Result slot = pool.run(probe.toArray(String[]::new));
        assertEquals(stock.out(), slot.out(), slot.toString());
        assertTrue(slot.err().contains("reached org.jvmreuse.pool.slot.TaskThreadGroup in module org.jvmreuse.pool")
                && slot.err().contains("reached org.jvmreuse.pool.slot.SlotRuntime"), slot.err());
    }

    /**
     * A charset from a program's own provider is found as in a new JVM (through the run's system
     * class loader) and is gone in the next run without that provider: the JDK's last-two-lookups
     * cache in {@code Charset} would otherwise hand it on, and hold the run's loader.
     */
    @Test
    void aProgramsOwnCharsetStaysWithItsRun(@TempDir Path dir) throws Exception {
        Path provider = providerJar(dir, "java.nio.charset.spi.CharsetProvider", "ProbeCharsetProvider",
                "ProbeCharsetProvider$ProbeCharset");
        String probe = "org.jvmreuse.it.programs.CharsetProbe";
        runsAsInNewJvms(List.of("-cp", provider + ":" + Pool.PROGRAMS, probe, "x-jvmreuse-probe"),
                "x-jvmreuse-probe supported: true\nfrom: org.jvmreuse.it.programs.ProbeCharsetProvider$ProbeCharset\n",
                List.of("-cp", Pool.PROGRAMS, probe, "x-jvmreuse-probe"), "x-jvmreuse-probe supported: false\n");
    }

    /**
     * The installed file system providers, which the JDK loads once: a run finds its own (from its
     * class path) as in a new JVM, the next run does not, and a jar file system a run leaves open
     * does not make the next run's open of the same jar fail (FileSystemAlreadyExistsException).
     */
    @Test
    void aProgramsFileSystemProvidersAndOpenJarFileSystemsStayWithItsRun(@TempDir Path dir) throws Exception {
        Path provider = providerJar(dir, "java.nio.file.spi.FileSystemProvider", "ProbeFileSystemProvider");
        String probe = "org.jvmreuse.it.programs.FileSystemProbe";
        runsAsInNewJvms(List.of("-cp", provider + ":" + Pool.PROGRAMS, probe, provider.toString()),
                "schemes: file jar jrt jvmreuse-probe\njar file system: opened\n",
                List.of("-cp", Pool.PROGRAMS, probe, provider.toString()), "schemes: file jar jrt\njar file system: opened\n");
    }

    /**
     * Threads a program does not name get the names they get in a new JVM (Thread-0,
     * pool-1-thread-1, ForkJoinPool-1-worker-1, Timer-0), not numbers counted on from the slot's
     * own threads and the runs before: on the build's JDK and the newest one.
     */
    @Test
    void unnamedThreadsAreNumberedAsInANewJvm() throws Exception {
        for (String java : Jdks.all()) {
            List<String> probe = List.of("-cp", Pool.PROGRAMS, "org.jvmreuse.it.programs.ThreadNames");
            List<String> command = new ArrayList<>(List.of(java));
            command.addAll(probe);
            Pool.Result stock = Pool.exec(command, Map.of(), null, 60);
            assertTrue(stock.out().startsWith("Thread-0\npool-1-thread-1\nForkJoinPool-1-worker-1\nTimer-0\n"), stock.toString());
            try (Pool own = java.equals(Jdks.DEFAULT) ? null : Pool.start(1, java)) {
                Pool slot = own == null ? pool : own;
                for (int i = 1; i <= 3; i++) {
                    Pool.Result run = slot.run(probe.toArray(String[]::new));
                    assertEquals(stock.out(), run.out(), java + ", run " + i + ": " + run);
                }
            }
        }
    }

    /**
     * A jar read through a {@code jar:} URL is read as it is on disk now, not as an earlier run on
     * the slot found it: the JDK keeps such jars open, which would serve the next run a rebuilt
     * jar's old entries (and keep every run's jars open).
     */
    @Test
    void aJarReadThroughAJarUrlIsReadAsItIsNow(@TempDir Path dir) throws Exception {
        Path jar = dir.resolve("resources.jar");
        List<String> probe = List.of("-cp", Pool.PROGRAMS, "org.jvmreuse.it.programs.JarResource", jar.toString(), "msg.txt");
        for (String version : List.of("first version", "second version, longer")) {
            try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
                out.putNextEntry(new JarEntry("msg.txt"));
                out.write(version.getBytes(StandardCharsets.UTF_8));
            }
            Pool.Result stock = inNewJvm(probe, Map.of());
            assertEquals(version + "\n", stock.out(), stock.toString());
            Pool.Result slot = pool.run(probe.toArray(String[]::new));
            assertEquals(stock.out(), slot.out(), slot.toString());
        }
    }

    /** A jar of {@code classes} (of the test programs) that provides the first as {@code service}. */
    private static Path providerJar(Path dir, String service, String... classes) throws Exception {
        Path jar = dir.resolve("provider.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            for (String cls : classes) {
                String entry = "org/jvmreuse/it/programs/" + cls + ".class";
                out.putNextEntry(new JarEntry(entry));
                Files.copy(Path.of(Pool.PROGRAMS, entry), out);
            }
            out.putNextEntry(new JarEntry("META-INF/services/" + service));
            out.write(("org.jvmreuse.it.programs." + classes[0] + "\n").getBytes(StandardCharsets.UTF_8));
        }
        return jar;
    }

    /**
     * A new JVM prints {@code withOut} for {@code with} and {@code withoutOut} for {@code without};
     * so do two rounds of both on the slot.
     */
    private void runsAsInNewJvms(List<String> with, String withOut, List<String> without, String withoutOut)
            throws Exception {
        Pool.Result stockWith = inNewJvm(with, Map.of());
        assertEquals(withOut, stockWith.out(), stockWith.toString());
        Pool.Result stockWithout = inNewJvm(without, Map.of());
        assertEquals(withoutOut, stockWithout.out(), stockWithout.toString());
        for (int i = 1; i <= 2; i++) {
            Pool.Result slotWith = pool.run(with.toArray(String[]::new));
            assertEquals(withOut, slotWith.out(), "run " + i + " with the provider: " + slotWith);
            Pool.Result slotWithout = pool.run(without.toArray(String[]::new));
            assertEquals(withoutOut, slotWithout.out(), "run " + i + " without it: " + slotWithout);
            assertTrue(slotWithout.err().contains("running in slot 0"), slotWithout.err());
        }
        assertTrue(pool.status().contains("retired 0"), pool.status());
    }

    /** The same java arguments in a new JVM, as a stock launch runs them. */
    private static Pool.Result inNewJvm(List<String> javaArgs, Map<String, String> env) throws Exception {
        List<String> command = new ArrayList<>(List.of(Jdks.DEFAULT));
        command.addAll(javaArgs);
        return Pool.exec(command, env, null, 60);
    }
}
