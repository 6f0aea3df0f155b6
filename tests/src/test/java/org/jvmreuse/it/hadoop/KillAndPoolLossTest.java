package org.jvmreuse.it.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * YARN's kill reaches a job's MRAppMaster and tasks in their slots and the slots serve again
 * afterwards; a pool that stops in the middle of a job (ending the AM and tasks it runs) leaves the
 * job to finish down the stock path: YARN starts the AM's second attempt in a new JVM, which
 * recovers the maps the first one finished.
 */
class KillAndPoolLossTest {
    private static final Pattern APP = Pattern.compile("Submitted application (application_\\d+_\\d+)");
    private HadoopCluster cluster;
    private Path jar;

    @BeforeEach
    void startCluster() throws Exception {
        // three slots: the job's AM holds one (the default AM cap of three slots is two)
        cluster = HadoopCluster.start(1, "--pool", "--slots", "3");
        jar = JobJars.withMarker(cluster.dir, "sleep");
    }

    @AfterEach
    void stopCluster() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    private Process sleepJob(int maps, long sleepMillis, String out, Path log, String... options) throws Exception {
        return JobJars.sleepJob(cluster, jar, maps, sleepMillis, out, log, options);
    }

    private static void await(String what, long timeoutMillis, Check check) throws Exception {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        while (!check.ok()) {
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError("timed out waiting until " + what);
            }
            Thread.sleep(200);
        }
    }

    private static List<Path> pidFiles(Path dir) throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.toString().endsWith(".pid")).toList();
        }
    }

    interface Check {
        boolean ok() throws Exception;
    }

    /**
     * As when YARN kills a new JVM's container: the task ends, its child processes with it, and its
     * shutdown hooks get no more than the SIGTERM-to-SIGKILL window (the hook here needs 3 s).
     */
    @Test
    void yarnKillStopsTheTaskInItsSlotAndTheSlotIsReused() throws Exception {
        Path log = cluster.dir.resolve("sleep-client.log");
        Path leftovers = Files.createDirectories(cluster.dir.resolve("leftovers"));
        Process client = sleepJob(2, 600_000, "sleep-killed", log, "-Dsleep.leftovers=" + leftovers,
                "-Dsleep.leftovers.hook=true");
        List<ProcessHandle> children = new ArrayList<>();
        try {
            await("the AM and both tasks run in slots", 120_000, () -> cluster.poolStatus(1).contains("busy 3"));
            await("both tasks started their child", 30_000, () -> pidFiles(leftovers).size() == 2);
            for (Path pidFile : pidFiles(leftovers)) {
                ProcessHandle.of(Long.parseLong(Files.readString(pidFile).trim())).ifPresent(children::add);
            }
            assertEquals(2, children.size(), "the tasks' children run");
            Matcher m = APP.matcher(Files.readString(log));
            assertTrue(m.find(), "no application id in:\n" + Files.readString(log));
            var killed = cluster.yarn("application", "-kill", m.group(1));
            assertEquals(0, killed.code(), "yarn application -kill failed: " + killed);
            await("the slots are free again", 30_000, () -> cluster.poolStatus(1).contains("busy 0"));
            await("the tasks' children are gone", 5_000, () -> children.stream().noneMatch(ProcessHandle::isAlive));
            assertTrue(client.waitFor(120, TimeUnit.SECONDS), "the job client did not end");
            assertNotEquals(0, client.exitValue(), "a killed job must not report success:\n" + Files.readString(log));
            Thread.sleep(4000);
            try (Stream<Path> files = Files.list(leftovers)) {
                assertEquals(List.of(), files.filter(p -> p.toString().endsWith(".hook")).toList(),
                        "a killed task's shutdown hook ran on after the kill");
            }
        } finally {
            children.forEach(ProcessHandle::destroyForcibly);
            client.destroyForcibly();
        }
        String status = cluster.poolStatus(1);
        assertTrue(status.contains("retired 0"), status);
        String app = APP.matcher(Files.readString(log)).results().findFirst().orElseThrow().group(1);
        String nmLog = Files.readString(cluster.dir.resolve("logs/nodemanager1.log"));
        assertTrue(nmLog.contains(app.replace("application_", "container_") + "_01_000001: application master handed to the JVM pool"),
                "the killed job's AM did not run in a slot");
        long before = cluster.pooledRuns();
        // A task that ends by itself (no hook keeps it up until the MRAppMaster stops its
        // container): the container's end, where the NodeManager signals its process group,
        // ends the processes it left, in a slot as in a new JVM.
        Path left = Files.createDirectories(cluster.dir.resolve("leftovers-after"));
        Process next = sleepJob(2, 10, "sleep-after-kill", cluster.dir.resolve("after.log"), "-Dsleep.leftovers=" + left);
        assertTrue(next.waitFor(180, TimeUnit.SECONDS), "the next job did not finish");
        assertEquals(0, next.exitValue(), Files.readString(cluster.dir.resolve("after.log")));
        cluster.awaitIdlePools();
        assertEquals(3, cluster.pooledRuns() - before, "the next job's AM and tasks ran in the same slots");
        List<ProcessHandle> leftBehind = new ArrayList<>();
        for (Path pidFile : pidFiles(left)) {
            ProcessHandle.of(Long.parseLong(Files.readString(pidFile).trim())).ifPresent(leftBehind::add);
        }
        try {
            await("the ended tasks' children are gone", 5_000, () -> leftBehind.stream().noneMatch(ProcessHandle::isAlive));
        } finally {
            leftBehind.forEach(ProcessHandle::destroyForcibly);
        }
    }

    @Test
    void aPoolStoppedMidJobLeavesTheRestToTheStockPath() throws Exception {
        int maps = 10;
        Path log = cluster.dir.resolve("sleep-client.log");
        Process client = sleepJob(maps, 1500, "sleep-pool-lost", log);
        try {
            await("two tasks ran in the pool", 180_000, () -> cluster.pooledRuns() >= 2);
            var stopped = cluster.stopPool(1, "--now");
            assertEquals(0, stopped.code(), "pool stop failed: " + stopped);
            assertTrue(client.waitFor(300, TimeUnit.SECONDS), "the job did not finish without its pool");
            assertEquals(0, client.exitValue(), "the job failed after its pool stopped:\n" + Files.readString(log));
        } finally {
            client.destroyForcibly();
        }
        List<String> lines = new ArrayList<>();
        try (Stream<Path> parts = Files.list(cluster.dir.resolve("data/sleep-pool-lost"))) {
            for (Path part : parts.filter(p -> p.getFileName().toString().startsWith("part-")).toList()) {
                lines.addAll(Files.readAllLines(part));
            }
        }
        assertEquals(maps, lines.size(), "every map wrote its line: " + lines);
        String app = APP.matcher(Files.readString(log)).results().findFirst().orElseThrow().group(1)
                .replace("application_", "container_");
        String nmLog = Files.readString(cluster.dir.resolve("logs/nodemanager1.log"));
        assertTrue(nmLog.contains(app + "_01_000001: application master handed to the JVM pool"), "AM 1 did not run in a slot");
        // the pool is gone: the client of the second attempt's container started a new JVM
        assertTrue(nmLog.contains("Container " + app + "_02_000001"), "YARN started no second AM attempt");
    }
}
