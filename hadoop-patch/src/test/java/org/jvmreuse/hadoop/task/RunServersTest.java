package org.jvmreuse.hadoop.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jvmreuse.hadoop.task.job.Serves;
import org.jvmreuse.pool.slot.InProcessSlot;
import org.jvmreuse.pool.slot.RunOutcome;
import org.jvmreuse.pool.slot.StartedRun;

/**
 * As an AM killed while its services stop: its servers are still serving when the run ends.
 * Their threads ignore interrupts; the reset stops the servers before the slot ends the run's
 * threads, so that their ports are free again.
 */
class RunServersTest {
    private static final long SERVE_WAIT_MILLIS = 30_000;

    @TempDir
    Path dir;

    @Test
    void anRpcServerTheRunLeftRunningIsStoppedWithIt() throws Exception {
        assertStoppedWithTheRun("rpc");
    }

    @Test
    void aWebAppTheRunLeftRunningIsStoppedWithIt() throws Exception {
        assertStoppedWithTheRun("webapp");
    }

    /** The run is ended by a signal once it serves; then the server's threads are gone and its port is free. */
    private void assertStoppedWithTheRun(String server) throws Exception {
        Path portFile = dir.resolve("port");
        StartedRun run = InProcessSlot.get().start(HadoopRuns.ofAppMaster(Serves.class, server, portFile.toString()));
        for (long deadline = System.currentTimeMillis() + SERVE_WAIT_MILLIS; !Files.exists(portFile); Thread.sleep(5)) {
            assertTrue(System.currentTimeMillis() < deadline, "the run did not serve");
        }
        run.signal(15);
        RunOutcome outcome = run.await();
        assertEquals(143, outcome.exitCode(), outcome::toString);
        assertNull(outcome.slotProblem(), outcome::toString);
        int port = Integer.parseInt(Files.readString(portFile));
        List<String> left = Thread.getAllStackTraces().keySet().stream().map(Thread::getName)
                .filter(name -> name.matches(".*\\D" + port + "(\\D.*)?")).toList();
        assertEquals(List.of(), left, "threads of the run's server on port " + port);
        try (ServerSocket again = new ServerSocket()) {
            again.bind(new InetSocketAddress(port));
        }
    }
}
