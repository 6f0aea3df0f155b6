package org.jvmreuse.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.Test;

/**
 * A shared library's run hooks (org.jvmreuse.boot.RunHook, listed in META-INF/services) are called around every run that
 * shares it: before, with the run's loader as context and able to set the run's environment;
 * at the end, before the run's threads are interrupted; after, told whether the run ended in a
 * way that runs shutdown hooks.
 */
class RunHooksTest {
    @Test
    void hooksOfASharedLibraryRunAroundEachRun() throws Exception {
        Path jar = Files.createTempFile("jrt-sharedlib", ".jar");
        try (JarOutputStream jos = new JarOutputStream(Files.newOutputStream(jar))) {
            String cls = "org/jvmreuse/it/sharedlib/RecordingHooks.class";
            jos.putNextEntry(new JarEntry(cls));
            Files.copy(Path.of(Pool.PROGRAMS, cls), jos);
            jos.putNextEntry(new JarEntry("META-INF/services/org.jvmreuse.boot.RunHook"));
            jos.write("# test hooks\norg.jvmreuse.it.sharedlib.RecordingHooks\n".getBytes());
        }
        try (Pool pool = Pool.start(1)) {
            String[] ends = {"return", "exit", "halt", "return"};
            String[] expectedCalls = {
                "before1(loader=true)",
                "before1(loader=true) end1 interrupted1 after1(true) before2(loader=true)",
                "before1(loader=true) end1 interrupted1 after1(true) before2(loader=true) end2 interrupted2 after2(true)"
                        + " before3(loader=true)",
                "before1(loader=true) end1 interrupted1 after1(true) before2(loader=true) end2 interrupted2 after2(true)"
                        + " before3(loader=true) end3 interrupted3 after3(false) before4(loader=true)",
            };
            for (int i = 0; i < ends.length; i++) {
                Pool.Result r = pool.run("--shared-cp", jar.toString(), "-cp", jar + ":" + Pool.PROGRAMS,
                        "org.jvmreuse.it.programs.HookProbe", ends[i]);
                assertEquals(0, r.code(), r.toString());
                assertTrue(r.err().contains("running in slot"), "fell back: " + r);
                assertEquals("env=run " + (i + 1) + "\ncalls=" + expectedCalls[i] + "\n", r.out(), "run " + (i + 1));
            }
        } finally {
            Files.deleteIfExists(jar);
        }
    }

    @Test
    void aBrokenHookListSendsTheRunToANewJvmWithTheReasonAndTheSlotServesOn() throws Exception {
        Path jar = Files.createTempFile("jrt-badhooks", ".jar");
        try (JarOutputStream jos = new JarOutputStream(Files.newOutputStream(jar))) {
            jos.putNextEntry(new JarEntry("META-INF/services/org.jvmreuse.boot.RunHook"));
            jos.write("org.example.NoSuchHooks\n".getBytes());
        }
        try (Pool pool = Pool.start(1)) {
            Pool.Result bad = pool.run("--shared-cp", jar.toString(), "-cp", jar + ":" + Pool.PROGRAMS,
                    "org.jvmreuse.it.programs.Echo", "3");
            assertEquals(3, bad.code(), bad.toString());
            assertEquals("echo 3\n", bad.out());
            assertTrue(bad.err().startsWith("jvmreuse: the pool could not start the program: a run hook of the shared class"
                    + " path cannot be made: org.jvmreuse.boot.RunHook: Provider org.example.NoSuchHooks not found"),
                    "names the broken hook class, then the new JVM's output follows: " + bad);
            assertTrue(bad.err().endsWith("starting a new JVM\nerr 3\n"), bad.toString());
            Pool.Result good = pool.program("Echo", "3");
            assertEquals(3, good.code(), good.toString());
            assertTrue(good.err().contains("running in slot"), good.toString());
        } finally {
            Files.deleteIfExists(jar);
        }
    }
}
