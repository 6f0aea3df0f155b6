package org.jvmreuse.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Faults stay where they happen: a run that exhausts the heap or direct memory, a flood of
 * SIGQUIT, an error on a slot's MPI thread end that run at most, or retire that slot when its
 * JVM cannot be trusted any more; mpirun, the pool and its other slots serve on. One pool of
 * three slots for the whole class; the tests run in order, the two that retire a slot last.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ContainmentTest {
    private static Pool pool;
    private static Path library;

    @BeforeAll
    static void startPool() throws Exception {
        library = Files.createTempFile("jrt-faultylib", ".jar");
        try (JarOutputStream jar = new JarOutputStream(Files.newOutputStream(library))) {
            for (String cls : List.of("FaultyReceiver", "Hoard")) {
                String entry = "org/jvmreuse/it/sharedlib/" + cls + ".class";
                jar.putNextEntry(new JarEntry(entry));
                Files.copy(Path.of(Pool.PROGRAMS, entry), jar);
            }
            jar.putNextEntry(new JarEntry("META-INF/services/org.jvmreuse.boot.RunHook"));
            jar.write("org.jvmreuse.it.sharedlib.FaultyReceiver\n".getBytes(StandardCharsets.UTF_8));
        }
        pool = Pool.start(3);
    }

    @AfterAll
    static void stopPool() throws Exception {
        if (pool != null) {
            pool.close();
        }
        Files.deleteIfExists(library);
    }

    private static Pool.Result withLibrary(String program, String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of("--shared-cp", library.toString(), "-cp",
                library + ":" + Pool.PROGRAMS, "org.jvmreuse.it.programs." + program));
        command.addAll(List.of(args));
        return pool.run(command.toArray(String[]::new));
    }

    /** mpirun lives, the pool has {@code retired} slots retired, and three runs in a row are served by it. */
    private static void poolServesOn(int retired) throws Exception {
        assertTrue(pool.mpirunAlive(), "mpirun must survive");
        assertTrue(pool.status().contains("retired " + retired + ")"), pool.status());
        for (int i = 0; i < 3; i++) {
            Pool.Result next = pool.program("Echo", "3");
            assertEquals(3, next.code(), next.toString());
            assertEquals("echo 3\n", next.out(), next.toString());
            assertTrue(next.err().contains("running in slot"), next.toString());
        }
    }

    /** A failure shows the pool's logs too: why a slot retired, or what it did with the run's end. */
    private static void assertRunFailedOutOfMemory(Pool.Result r, String what) {
        assertEquals(1, r.code(), () -> r + pool.logTails());
        assertTrue(r.err().contains("running in slot"), () -> "ran in the pool: " + r + pool.logTails());
        assertTrue(r.err().contains("java.lang.OutOfMemoryError: " + what), () -> r + pool.logTails());
    }

    @Test
    @Order(1)
    void aRunThatExhaustsTheHeapFailsAsInANewJvmAndItsSlotRecovers() throws Exception {
        assertRunFailedOutOfMemory(pool.program("Exhaust", "heap"), "Java heap space");
        poolServesOn(0);
    }

    @Test
    @Order(2)
    void aRunThatExhaustsDirectMemoryFailsAsInANewJvmAndItsSlotRecovers() throws Exception {
        assertRunFailedOutOfMemory(pool.program("Exhaust", "direct"), "Cannot reserve");
        poolServesOn(0);
    }

    @Test
    @Order(3)
    void aFloodOfSigquitGivesAFewThreadDumpsAndTheRunGoesOn() throws Exception {
        Process client = pool.startProgram("Exiter", "sleep", "5000");
        // Read as it comes: the JVM's own dumps fill a pipe that is read only at the end.
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> readAll(client.getInputStream()));
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> readAll(client.getErrorStream()));
        pool.awaitStatus("busy 1", 15_000);
        long slot = busySlotPid();
        // 1000 to the client over a second (it forwards them to the run), then 1000 at once
        // straight at the slot's JVM, which prints its own dumps to the run's stdout as java would.
        Process flood = new ProcessBuilder("bash", "-c", "for i in {1..50}; do for j in {1..20}; do kill -QUIT $1; done; "
                + "sleep 0.02; done; for i in {1..1000}; do kill -QUIT $2; done", "flood", Long.toString(client.pid()),
                Long.toString(slot)).inheritIO().start();
        assertEquals(0, flood.waitFor());
        if (!client.waitFor(60, TimeUnit.SECONDS)) {
            client.destroyForcibly();
            throw new AssertionError("the run did not end");
        }
        assertEquals(0, client.exitValue(), err.get());
        assertTrue(out.get().contains("main returned"), out.get());
        long dumps = out.get().lines().filter(l -> l.startsWith("Full thread dump of the run")).count();
        // One dump per 200 ms burst: about 6 for the second of SIGQUITs.
        assertTrue(dumps >= 1 && dumps <= 12, "1000 SIGQUITs to the client gave " + dumps + " thread dumps of the run");
        assertTrue(Pool.running(slot), "the slot's JVM survives SIGQUITs");
        poolServesOn(0);
    }

    /**
     * The manager lets one SIGQUIT per 200 ms through, and the slot writes each dump on a thread
     * of its own; while the run's stdout is full, a dump blocks, and the next ones used to pile
     * up behind it (446,000 SIGQUITs grew a slot from 23 threads to 183).
     */
    @Test
    @Order(4)
    void sigquitsAtARunWhoseStdoutNobodyReadsHoldOneDumpThread() throws Exception {
        Process client = pool.startProgram("Exiter", "fill-stdout");
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> readAll(client.getErrorStream()));
        pool.awaitStatus("busy 1", 15_000);
        long slot = busySlotPid();
        Thread.sleep(500); // the program has filled the pipe and blocks writing to it
        Process flood = new ProcessBuilder("bash", "-c", "for i in {1..30}; do kill -QUIT $1; sleep 0.1; done", "flood",
                Long.toString(client.pid())).inheritIO().start();
        assertEquals(0, flood.waitFor());
        long dumpThreads = threadsNamed(slot, "thread-dump");
        client.getInputStream().close(); // the writes fail now (EPIPE), and the run ends
        assertTrue(client.waitFor(60, TimeUnit.SECONDS), "the run did not end");
        assertTrue(dumpThreads <= 1, "about 15 SIGQUITs passed on to a run that cannot write left " + dumpThreads
                + " dump threads in its slot; " + err.get());
        poolServesOn(0);
    }

    private static long threadsNamed(long pid, String name) throws IOException {
        try (var tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
            return tasks.filter(task -> {
                try {
                    return Files.readString(task.resolve("comm")).strip().equals(name);
                } catch (IOException gone) {
                    return false;
                }
            }).count();
        }
    }

    @Test
    @Order(5)
    void anErrorOnASlotsMpiThreadFailsThatMessageOnly() throws Exception {
        Pool.Result poked = withLibrary("Poke", "1", "300");
        assertEquals(0, poked.code(), poked.toString());
        assertEquals("poked\n", poked.out());
        assertTrue(poked.err().contains("running in slot"), poked.toString());
        poolServesOn(0);
    }

    @Test
    @Order(6)
    void aRunThatLeavesTheHeapFullRetiresItsSlot() throws Exception {
        assertRunFailedOutOfMemory(withLibrary("Exhaust", "heap", "shared"), "Java heap space");
        pool.awaitStatus("retired 1)", 15_000);
        poolServesOn(1);
    }

    @Test
    @Order(7)
    void aRunThatLeavesDirectMemoryFullRetiresItsSlot() throws Exception {
        assertRunFailedOutOfMemory(withLibrary("Exhaust", "direct", "shared"), "Cannot reserve");
        pool.awaitStatus("retired 2)", 15_000);
        poolServesOn(2);
    }

    private static String readAll(InputStream in) {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long busySlotPid() throws Exception {
        for (String line : pool.status().split("\n")) {
            if (line.startsWith("slot ") && line.contains(" busy busy=1")) {
                return Long.parseLong(line.replaceAll(".* pid (\\d+) .*", "$1"));
            }
        }
        throw new AssertionError("no busy slot in\n" + pool.status());
    }
}
