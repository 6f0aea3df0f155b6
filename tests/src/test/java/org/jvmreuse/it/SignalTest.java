package org.jvmreuse.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Ctrl-C and SIGTERM sent to the client reach the program in its slot, as they would reach java. */
class SignalTest {
    private static Pool pool;

    @BeforeAll
    static void start() throws Exception {
        pool = Pool.start(1);
    }

    @AfterAll
    static void stop() throws Exception {
        pool.close();
    }

    @ParameterizedTest(name = "signal {0}")
    @CsvSource({"TERM,143", "INT,130", "HUP,129"})
    void signalRunsHooksAndEndsTheRun(String signal, int expectedCode) throws Exception {
        Process client = pool.startProgram("Exiter", "sleep", "600000");
        pool.awaitStatus("busy 1", 15_000);
        Thread.sleep(200); // the program is in main
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(client.pid())).inheritIO().start();
        assertEquals(0, kill.waitFor());
        assertTrue(client.waitFor(30, TimeUnit.SECONDS), "the run did not end after SIG" + signal);
        String out = new String(client.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(expectedCode, client.exitValue(), out);
        assertEquals("started sleep\nhook ran\n", out);
        pool.awaitStatus("free 1,", 15_000);
        Pool.Result next = pool.program("StaticCounter");
        assertEquals("1\n", next.out(), next.toString());
        assertTrue(next.err().contains("running in slot 0"), next.err());
    }

    @Test
    void quitPrintsAThreadDumpAndTheRunGoesOn() throws Exception {
        Process client = pool.startProgram("Exiter", "sleep", "3000");
        pool.awaitStatus("busy 1", 15_000);
        Thread.sleep(300);
        assertEquals(0, new ProcessBuilder("kill", "-QUIT", Long.toString(client.pid())).inheritIO().start().waitFor());
        assertTrue(client.waitFor(30, TimeUnit.SECONDS), "the run should end by itself");
        String out = new String(client.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, client.exitValue(), out);
        assertTrue(out.contains("Full thread dump"), out);
        assertTrue(out.contains("\"main\""), out);
        assertTrue(out.contains("at org.jvmreuse.it.programs.Exiter.main"), out);
        assertTrue(out.endsWith("main returned\nhook ran\n"), out);
    }
}
