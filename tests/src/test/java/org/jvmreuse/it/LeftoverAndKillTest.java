package org.jvmreuse.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What a run leaves behind is not charged to the next one, and a kill ends a run with its hooks
 * and child processes within YARN's window (SIGKILL 250 ms after SIGTERM).
 */
class LeftoverAndKillTest extends OneSlotPoolTest {
    private static final String LEFTOVER = "org.jvmreuse.it.programs.Leftover";

    @ParameterizedTest(name = "leftover in {0}")
    @ValueSource(strings = {"system", "unmarked", "common", "executor"})
    void aLeftoverThreadNeitherWritesToNorEndsTheNextRun(String place) throws Exception {
        Pool.Result first = pool.program("Leftover", place);
        assertEquals(0, first.code(), first.toString());
        assertTrue(first.out().contains("left a thread in " + place), first.toString());
        assertFalse(first.err().contains("TaskExit"), "stopping the leftover showed in the run's stderr: " + first);
        assertVictimUnharmed(pool, true);
    }

    /**
     * On the newest JDK (21+): a virtual thread is found too. JVMTI stops one only while it is
     * mounted, so it is stopped or, failing that, its slot retires and the next run goes to a
     * new JVM; either way the next run neither sees it nor ends by its exit.
     */
    @ParameterizedTest(name = "leftover {0} thread")
    @ValueSource(strings = {"virtual", "virtual-unmarked"})
    void aLeftoverVirtualThreadNeitherWritesToNorEndsTheNextRun(String kind) throws Exception {
        String newest = Jdks.newest();
        Assumptions.assumeTrue(newest != null && Jdks.major(newest) >= 21, "no JDK 21+ installed");
        try (Pool onNewest = Pool.start(1, newest)) {
            Pool.Result first = onNewest.program("Leftover", kind);
            assertEquals(0, first.code(), first.toString());
            assertFalse(first.err().contains("TaskExit"), "stopping the leftover showed in the run's stderr: " + first);
            assertVictimUnharmed(onNewest, false);
        }
    }

    private static void assertVictimUnharmed(Pool in, boolean sameSlot) throws Exception {
        Pool.Result second = in.run(List.of("-cp", Pool.PROGRAMS, LEFTOVER, "victim"), Map.of("RUN_MARK", "second"), null);
        assertEquals(3, second.code(), "a leftover's exit ended the next run: " + second);
        assertEquals("victim done\n", second.out(), second.toString());
        if (sameSlot) {
            assertTrue(second.err().contains("running in slot 0"), second.toString());
        }
    }

    /**
     * A YARN task's processes end with its container (the NodeManager signals its process group),
     * also one whose parent ended first: the slot adopts such orphans (it is their subreaper), as
     * the container's process group keeps them, and ends them with the run.
     */
    @Test
    void aYarnTasksOrphanedProcessEndsWithIt() throws Exception {
        Pool.Result run = pool.run(List.of("-cp", Pool.PROGRAMS, "org.jvmreuse.it.programs.Orphan"),
                Map.of("CONTAINER_ID", "container_1_0001_01_000002"), null);
        assertEquals(0, run.code(), run.toString());
        long orphan = Long.parseLong(run.out().strip());
        try {
            Path proc = Path.of("/proc/" + orphan);
            long deadline = System.currentTimeMillis() + 3_000;
            while (Files.exists(proc) && System.currentTimeMillis() < deadline) {
                Thread.sleep(20);
            }
            assertFalse(Pool.running(orphan), "the task's orphaned sleep (pid " + orphan + ") outlived it");
            assertFalse(Files.exists(proc), "the task's orphaned sleep (pid " + orphan + ") was not reaped");
        } finally {
            ProcessHandle.of(orphan).ifPresent(ProcessHandle::destroyForcibly);
        }
    }

    @Test
    void tempFilesGoToTheRunsTmpdir() throws Exception {
        Path tmp = Files.createTempDirectory("jrt-tmpdir");
        try {
            Pool.Result own = pool.run(List.of("-Djava.io.tmpdir=" + tmp, "-cp", Pool.PROGRAMS,
                    "org.jvmreuse.it.programs.TempFiles"), Map.of(), null);
            assertEquals("File.createTempFile " + tmp + "\nFiles.createTempFile " + tmp + "\n", own.out(), own.toString());
            Pool.Result slots = pool.program("TempFiles");
            assertFalse(slots.out().contains(tmp.toString()), "the next run kept the tmpdir: " + slots);
        } finally {
            Files.delete(tmp);
        }
    }

    @Test
    void killAfterTermEndsTheRunItsHooksAndItsChildAtOnce() throws Exception {
        Path ticks = Files.createTempFile("jrt-ticks", ".txt");
        try {
            Process client = pool.startProgram("KillProbe", ticks.toString());
            BufferedReader out = new BufferedReader(new InputStreamReader(client.getInputStream(), StandardCharsets.UTF_8));
            String line = out.readLine();
            assertTrue(line != null && line.startsWith("child "), "no child started: " + line);
            long child = Long.parseLong(line.substring("child ".length()));
            assertTrue(Pool.running(child));
            assertEquals(0, new ProcessBuilder("kill", "-TERM", Long.toString(client.pid())).inheritIO().start().waitFor());
            long deadline = System.currentTimeMillis() + 10_000;
            while (Files.readAllLines(ticks).size() < 5) {
                assertTrue(System.currentTimeMillis() < deadline, "the shutdown hook never ran after SIGTERM");
                Thread.sleep(10);
            }
            client.destroyForcibly(); // YARN's SIGKILL
            assertTrue(client.waitFor(10, TimeUnit.SECONDS));
            Thread.sleep(300);
            assertFalse(Pool.running(child), "the run's child process outlived the kill");
            int afterKill = Files.readAllLines(ticks).size();
            Thread.sleep(500);
            assertEquals(afterKill, Files.readAllLines(ticks).size(), "the shutdown hook still ran 300 ms after SIGKILL");
            pool.awaitStatus("free 1,", 15_000);
        } finally {
            Files.delete(ticks);
        }
    }
}
