package org.jvmreuse.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** When the pool cannot take a program, jvmreuse runs it in a new JVM and the user gets the same result. */
class FallbackTest {
    private static Pool.Result client(Path socket, String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of(Pool.CLIENT.toString()));
        command.addAll(List.of(args));
        return Pool.exec(command, Map.of("JVMREUSE_SOCKET", socket.toString(), "JVMREUSE_VERBOSE", "1"), null, 120);
    }

    /** Also: --fallback-note gets the reason the client tells (a NodeManager's executor logs it). */
    @Test
    void noPoolMeansANewJvm(@TempDir Path dir) throws Exception {
        Path note = dir.resolve("note");
        Pool.Result result = client(Path.of("/tmp/jvmreuse-no-such-pool/pool.sock"), "run", "--fallback-note", note.toString(),
                "-cp", Pool.PROGRAMS, "org.jvmreuse.it.programs.Echo", "3");
        assertEquals(3, result.code(), result.toString());
        assertEquals("echo 3\n", result.out());
        String told = result.err().lines().filter(l -> l.endsWith("; starting a new JVM")).findFirst().orElseThrow();
        assertEquals(told.substring(told.indexOf(": ") + 2, told.length() - "; starting a new JVM".length()) + "\n",
                Files.readString(note));
    }

    /**
     * Also: an application master (--kind=am) shows as one in the status while it holds the
     * only slot (a 1-slot pool takes none by default: this one has --am-slots 1), and a task
     * waiting behind it is told no slot became free; --add-opens to ALL-UNNAMED run in the pool
     * (ModuleAccessTest), one with another target in a new JVM that has it.
     */
    @Test
    void busyPoolAndUnsupportedOptionsFallBack() throws Exception {
        try (Pool pool = Pool.start(1, Jdks.DEFAULT, "", Map.of("JVMREUSE_AM_SLOTS", "1"))) {
            Process busy = pool.startProgram(List.of("--kind=am"), "Exiter", "sleep", "600000");
            pool.awaitStatus("busy 1", 15_000);
            String status = pool.status();
            assertTrue(status.contains("application masters: 1 in slots, at most 1 (--am-slots), 0 completed")
                    && status.contains(" kind=am ("), status);
            assertEquals(1, pool.statusJson().get("am_running").getIntValue());
            Pool.Result waited = client(pool.socket, "run", "--wait-ms", "300", "-cp", Pool.PROGRAMS,
                    "org.jvmreuse.it.programs.Echo", "4");
            assertEquals(4, waited.code(), waited.toString());
            assertEquals("echo 4\n", waited.out());
            assertTrue(waited.err().contains("no slot became free within 300 ms"), waited.err());
            busy.destroy();
            pool.awaitStatus("free 1,", 15_000);
            assertTrue(pool.slotLog(1).contains(" (am): org.jvmreuse.it.programs.Exiter exit 143;"), pool.slotLog(1));

            Pool.Result option = client(pool.socket, "run", "-ea", "-cp", Pool.PROGRAMS, "org.jvmreuse.it.programs.Echo", "5");
            assertEquals(5, option.code(), option.toString());
            assertTrue(option.err().contains("-ea"), option.err());

            Pool.Result opened = client(pool.socket, "run", "-Xmx64m", "--add-opens", "java.base/java.lang=ALL-UNNAMED",
                    "--add-opens=java.base/java.util.zip=ALL-UNNAMED", "-cp", Pool.PROGRAMS,
                    "org.jvmreuse.it.programs.OpenField", "java.lang.String", "value");
            assertEquals(0, opened.code(), opened.toString());
            assertEquals("opened java.lang.String.value\n", opened.out());
            assertTrue(opened.err().contains("running in slot 0"), opened.err());
            assertTrue(opened.err().contains("ignoring -Xmx64m: the pool's JVMs were started with their own options"),
                    opened.err());

            Pool.Result otherTarget = client(pool.socket, "run", "--add-opens", "java.base/java.lang=java.sql", "-cp",
                    Pool.PROGRAMS, "org.jvmreuse.it.programs.Echo", "6");
            assertEquals(6, otherTarget.code(), otherTarget.toString());
            assertTrue(otherTarget.err().contains("names a target other than ALL-UNNAMED"), otherTarget.err());
            // The pool read both command lines and sent them to new JVMs (the option, and the target).
            assertTrue(pool.status().contains("runs: completed 2, running 0, queued 0, fallbacks 3"), pool.status());
        }
    }

    @Test
    void stoppedPoolLeavesNoProcessAndClientsFallBack() throws Exception {
        Pool pool = Pool.start(2);
        List<ProcessHandle> processes = pool.poolProcesses();
        assertEquals(3, processes.size(), "mpirun starts one manager and two slots: " + processes);
        Pool.Result stop = Pool.exec(List.of(Pool.LAUNCHER.toString(), "stop", "--socket", pool.socket.toString()),
                Map.of(), null, 60);
        assertEquals(0, stop.code(), stop.toString());
        assertTrue(!pool.mpirunAlive(), "mpirun still running after stop");
        for (ProcessHandle process : processes) {
            assertTrue(!Pool.running(process.pid()), "pool process " + process.pid() + " left behind");
        }
        Pool.Result after = client(pool.socket, "run", "-cp", Pool.PROGRAMS, "org.jvmreuse.it.programs.Echo", "7");
        assertEquals(0, after.code(), after.toString());
        assertTrue(after.err().contains("starting a new JVM"), after.err());
        pool.close();
    }

    @Test
    void drainLetsTheRunningProgramFinishAndSendsNewOnesToANewJvm() throws Exception {
        try (Pool pool = Pool.start(1)) {
            Process running = pool.startProgram("Exiter", "sleep", "1500");
            pool.awaitStatus("busy 1", 15_000);
            Pool.Result drain = Pool.exec(List.of(Pool.CLIENT.toString(), "--socket", pool.socket.toString(), "drain"),
                    Map.of(), null, 30);
            assertEquals(0, drain.code(), drain.toString());
            assertTrue(pool.status().contains(": draining,"), pool.status());
            Pool.Result refused = client(pool.socket, "run", "-cp", Pool.PROGRAMS, "org.jvmreuse.it.programs.Echo", "2");
            assertEquals(2, refused.code(), refused.toString());
            assertTrue(refused.err().contains("the pool is draining; starting a new JVM"), refused.err());
            assertTrue(running.waitFor(30, java.util.concurrent.TimeUnit.SECONDS));
            assertEquals(0, running.exitValue(), "the running program finished normally");
            assertTrue(pool.status().contains("runs: completed 1,"), pool.status());
        }
    }
}
