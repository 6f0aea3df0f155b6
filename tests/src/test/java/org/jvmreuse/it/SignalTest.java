package org.jvmreuse.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Ctrl-C and SIGTERM sent to the client reach the program in its slot, as they would reach java. */
class SignalTest extends OneSlotPoolTest {
    @ParameterizedTest(name = "signal {0}")
    @CsvSource({"TERM,143", "INT,130", "HUP,129"})
    void signalRunsHooksAndEndsTheRun(String signal, int expectedCode) throws Exception {
        Process client = pool.startProgram("Exiter", "sleep", "600000");
        BufferedReader out = new BufferedReader(new InputStreamReader(client.getInputStream(), StandardCharsets.UTF_8));
        assertEquals("started sleep", out.readLine(), "the program is in main");
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(client.pid())).inheritIO().start();
        assertEquals(0, kill.waitFor());
        assertTrue(client.waitFor(30, TimeUnit.SECONDS), "the run did not end after SIG" + signal);
        String rest = rest(out);
        assertEquals(expectedCode, client.exitValue(), rest);
        assertEquals("hook ran\n", rest);
        pool.awaitStatus("free 1,", 15_000);
        Pool.Result next = pool.program("StaticCounter");
        assertEquals("1\n", next.out(), next.toString());
        assertTrue(next.err().contains("running in slot 0"), next.err());
    }

    /**
     * A signal sent to the slot's process, as a run's child script's {@code kill $PPID} sends it,
     * is the run's: it ends the run as a signal to its client does, and the slot serves on (the
     * JDK's own handler used to end the slot's JVM: the client got 137 and the slot was lost).
     */
    @ParameterizedTest(name = "signal {0}")
    @CsvSource({"TERM,143", "INT,130", "HUP,129"})
    void aSignalToTheSlotsProcessEndsTheRunNotTheSlot(String signal, int expectedCode) throws Exception {
        Process client = pool.startProgram("Exiter", "sleep", "600000");
        BufferedReader out = new BufferedReader(new InputStreamReader(client.getInputStream(), StandardCharsets.UTF_8));
        assertEquals("started sleep", out.readLine(), "the program is in main");
        long slot = Long.parseLong(pool.status().replaceAll("(?s).*\\nslot 0: rank \\d+ pid (\\d+) .*", "$1"));
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(slot)).inheritIO().start();
        assertEquals(0, kill.waitFor());
        assertTrue(client.waitFor(30, TimeUnit.SECONDS), "the run did not end after SIG" + signal + " to its slot");
        String rest = rest(out);
        assertEquals(expectedCode, client.exitValue(), rest);
        assertEquals("hook ran\n", rest);
        assertTrue(Pool.running(slot), "the slot's JVM must survive SIG" + signal);
        pool.awaitStatus("free 1,", 15_000);
        Pool.Result next = pool.program("StaticCounter");
        assertEquals("1\n", next.out(), next.toString());
        assertTrue(next.err().contains("running in slot 0 (rank 1, pid " + slot + ")"), next.err());
    }

    /** Each SIGTERM at the slot's process used to start a thread that signalled the run's processes again. */
    @Test
    void aFloodOfSigtermAtTheSlotsProcessReachesTheRunsProcessesOnce() throws Exception {
        Path terms = Files.createTempFile("jrt-terms", ".txt");
        try {
            Process client = pool.startProgram("Exiter", "term-counting-child", terms.toString());
            BufferedReader out = new BufferedReader(new InputStreamReader(client.getInputStream(), StandardCharsets.UTF_8));
            assertEquals("started term-counting-child", out.readLine());
            assertEquals("child started", out.readLine());
            for (int i = 0; i < 1000 && Files.readAllLines(terms).isEmpty(); i++) {
                Thread.sleep(10); // until the child's shell has set its trap
            }
            long slot = Long.parseLong(pool.status().replaceAll("(?s).*\\nslot 0: rank \\d+ pid (\\d+) .*", "$1"));
            Process flood = new ProcessBuilder("bash", "-c", "for i in {1..200}; do kill -TERM $1; done", "flood",
                    Long.toString(slot)).inheritIO().start();
            assertEquals(0, flood.waitFor());
            assertTrue(client.waitFor(30, TimeUnit.SECONDS), "the run did not end");
            assertEquals(143, client.exitValue());
            pool.awaitStatus("free 1,", 15_000);
            // At most one SIGTERM passed on, and the one a container's processes get when it ends.
            long received = Files.readAllLines(terms).stream().filter("TERM"::equals).count();
            assertTrue(received <= 2, "the run's process got " + received + " SIGTERMs");
        } finally {
            // The child ignores SIGTERM and outlives a run that is not a container's, as it would a JVM.
            List<String> lines = Files.readAllLines(terms);
            if (!lines.isEmpty() && lines.get(0).matches("\\d+")) {
                ProcessHandle.of(Long.parseLong(lines.get(0))).ifPresent(ProcessHandle::destroyForcibly);
            }
            Files.deleteIfExists(terms);
        }
    }

    @Test
    void quitPrintsAThreadDumpAndTheRunGoesOn() throws Exception {
        Process client = pool.startProgram("Exiter", "sleep", "3000");
        BufferedReader lines = new BufferedReader(new InputStreamReader(client.getInputStream(), StandardCharsets.UTF_8));
        assertEquals("started sleep", lines.readLine(), "the program is in main");
        assertEquals(0, new ProcessBuilder("kill", "-QUIT", Long.toString(client.pid())).inheritIO().start().waitFor());
        assertTrue(client.waitFor(30, TimeUnit.SECONDS), "the run should end by itself");
        String out = rest(lines);
        assertEquals(0, client.exitValue(), out);
        assertTrue(out.contains("Full thread dump"), out);
        assertTrue(out.contains("\"main\""), out);
        assertTrue(out.contains("at org.jvmreuse.it.programs.Exiter.main"), out);
        assertTrue(out.endsWith("main returned\nhook ran\n"), out);
    }

    /** Everything the client printed after the lines already read, line by line. */
    private static String rest(BufferedReader reader) {
        return reader.lines().map(line -> line + "\n").collect(Collectors.joining());
    }
}
