package org.jvmreuse.workloads.breakdown;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jvmreuse.workloads.cli.UsageException;
import org.jvmreuse.workloads.timing.Csv;
import org.jvmreuse.workloads.timing.JobTiming;
import org.jvmreuse.workloads.timing.TaskTiming;
import org.jvmreuse.workloads.timing.TimingRecorder;

class BreakdownTest {
    private static final long T = 1_700_000_000_000L;
    private static final String AM0 = "container_1700000000000_0001_01_000001";
    private static final String AM1 = "container_1700000000000_0002_01_000001";

    @TempDir
    Path dir;

    /**
     * Two jobs: iteration 0 on containers (two maps), iteration 1 uber (a map and a reduce inside the AM,
     * their finish recorded late, as Hadoop 2.2 does), whose AM launch no NodeManager log line names.
     */
    private void writeRun() throws Exception {
        TimingRecorder recorder = new TimingRecorder(dir, "run");
        recorder.tasks(List.of(
                task(0, "m0", TaskTiming.MAP, 5_000, 5_800, 8_000), task(0, "m1", TaskTiming.MAP, 5_200, 5_900, 8_500),
                task(1, "m0", TaskTiming.MAP, 12_300, 12_500, 13_500),
                task(1, "r0", TaskTiming.REDUCE, 12_700, 12_800, 13_500)));
        recorder.jobs(List.of(
                new JobTiming("run", 0, "job_1700000000000_0001", T + 1_000, T + 1_100, T + 2_600, AM0, "localhost:1", 1,
                        false, T + 4_000, T + 9_000, T + 9_300),
                new JobTiming("run", 1, "job_1700000000000_0002", T + 9_500, T + 9_600, T + 11_000, AM1, "localhost:1", 1,
                        true, T + 12_000, T + 13_800, T + 14_000)));
    }

    private static TaskTiming task(int iteration, String id, String type, long launch, long code, long finish) {
        return new TaskTiming("run", iteration, "job_1700000000000_000" + (iteration + 1), id, id + "_0", type,
                T + (iteration == 0 ? 1_000 : 9_500), T + launch, T + code, T + finish);
    }

    private Path nmLog(String... lines) throws Exception {
        Path log = Files.createTempFile(dir, "nodemanager", ".log");
        Files.write(log, List.of(lines));
        return log;
    }

    private static String at(long ms) {
        return DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss,SSS").format(Instant.ofEpochMilli(ms).atZone(ZoneId.systemDefault()));
    }

    private String breakdown(String... extra) throws Exception {
        String[] args = Stream.concat(Stream.of("--label", "run", "--timings", dir.toString()), Stream.of(extra))
                .toArray(String[]::new);
        PrintStream saved = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            assertEquals(0, BreakdownCommand.run(args));
        } finally {
            System.setOut(saved);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    private List<Map<String, String>> rows() throws Exception {
        return Csv.read(dir.resolve("run-breakdown.csv"));
    }

    private static long ms(Map<String, String> row, Phase phase) {
        return Long.parseLong(row.get(phase.column()));
    }

    @Test
    void phasesFollowOneAnotherAndAddUpToTheClientsTime() throws Exception {
        writeRun();
        Path log1 = nmLog(at(T + 1_500) + " INFO executor.PoolContainerExecutor: Container " + AM0
                        + ": stock launch (the job set JVMREUSE_POOL=off)",
                at(T + 1_400) + " INFO container.Container: Container " + AM0 + " transitioned from LOCALIZED to RUNNING");
        Path log2 = nmLog(at(T + 4_900) + " INFO executor.PoolContainerExecutor: Container "
                + "container_1700000000000_0001_01_000002: task handed to the JVM pool at /tmp/p/pool.sock");
        String table = breakdown("--nm-logs", log1.toString(), log2.toString());
        List<Map<String, String>> rows = rows();
        Map<String, String> first = rows.get(0);
        assertEquals("", first.get(Phase.BETWEEN.column()), "no job before the first");
        assertEquals(List.of(100L, 400L, 2_500L, 1_000L, 800L, 2_700L, 500L, 300L),
                Stream.of(Phase.values()).skip(1).map(p -> ms(first, p)).toList());
        assertEquals("8300", first.get("client_ms"));
        assertEquals("1100", first.get("am_launch_to_main_ms"), "AM container launch to MRAppMaster's main");
        assertEquals("stock", first.get("am_path"));
        assertEquals("nm-log", first.get("am_split"));
        for (Map<String, String> row : rows) {
            long sum = Stream.of(Phase.values()).skip(1).mapToLong(p -> ms(row, p)).sum();
            assertEquals(Long.parseLong(row.get("client_ms")), sum, "phases of iteration " + row.get("iteration"));
        }
        assertTrue(table.contains("* no NodeManager log line for the AM container"), table);
    }

    @Test
    void uberJobsHaveNoTaskAllocationAndCountTheirSetUpInTheLaunches() throws Exception {
        writeRun();
        breakdown("--nm-logs", nmLog("unrelated").toString());
        Map<String, String> uber = rows().get(1);
        assertEquals("true", uber.get("uberized"));
        assertEquals(200, ms(uber, Phase.BETWEEN), "the client's finish of the previous job -> this submit");
        assertEquals(0, ms(uber, Phase.TASK_ALLOCATION));
        assertEquals(500, ms(uber, Phase.TASK_LAUNCHES), "job start -> the first task's user code");
        assertEquals(1_000, ms(uber, Phase.TASK_WORK), "-> the last finish Hadoop recorded");
        assertEquals(300, ms(uber, Phase.COMMIT));
    }

    @Test
    void withoutTheAmLaunchAllocationAndStartSplitAtTheAmsMain() throws Exception {
        writeRun();
        String table = breakdown();
        for (Map<String, String> row : rows()) {
            assertEquals("am-main", row.get("am_split"));
            assertEquals("", row.get("am_path"));
            assertEquals("", row.get("am_launch_to_main_ms"));
        }
        Map<String, String> uber = rows().get(1);
        assertEquals(1_400, ms(uber, Phase.AM_ALLOCATION), "RM submission -> AM main");
        assertEquals(1_000, ms(uber, Phase.AM_START), "AM main -> job start");
        assertTrue(table.contains("split at the AM's main start"), table);
        assertTrue(table.contains("no --nm-logs"), table);
    }

    @Test
    void aJobWithoutTaskReportsHasUnknownTaskPhases() {
        JobTiming job = new JobTiming("run", 1, "job_1_0001", 0, 10, 20, AM0, "n:1", 1, false, 30, 90, 100);
        JobPath path = JobPaths.of(List.of(job), List.of(), Map.of()).get(0);
        assertNull(path.ms(Phase.TASK_ALLOCATION));
        assertNull(path.ms(Phase.TASK_WORK));
        assertNull(path.ms(Phase.COMMIT));
        assertEquals(10, path.ms(Phase.AM_ALLOCATION));
        assertEquals(100, path.clientMs());
        assertTrue(BreakdownTable.text(List.of(path)).contains(" -"), "unknown phases print as -");
    }

    @Test
    void nodeManagerLinesOfEveryKindAreRead() {
        Map<String, ContainerLaunch> launches = NodeManagerLog.parse(Stream.of(
                "2026-11-28 01:13:27,472 INFO executor.PoolContainerExecutor: Container container_1_0002_01_000001: "
                        + "stock launch (not a MapReduce task)",
                "2026-11-28 01:13:28,001 INFO executor.PoolContainerExecutor: Container container_1_0003_02_000001: "
                        + "application master handed to the JVM pool at /tmp/c/pool1/pool.sock",
                "2026-11-28 01:13:29,999 INFO executor.PoolContainerExecutor: Container container_1_0003_01_000002: "
                        + "task handed to the JVM pool at /tmp/c/pool1/pool.sock",
                "2026-11-28 01:13:30,000 INFO container.Container: Container container_1_0004_01_000001 transitioned"),
                ZoneId.of("UTC"));
        assertEquals(3, launches.size());
        assertEquals(new ContainerLaunch(Instant.parse("2026-11-28T01:13:27.472Z").toEpochMilli(), ContainerLaunch.STOCK),
                launches.get("container_1_0002_01_000001"));
        assertEquals(ContainerLaunch.POOL, launches.get("container_1_0003_02_000001").path());
        assertEquals(ContainerLaunch.POOL, launches.get("container_1_0003_01_000002").path());
    }

    @Test
    void missingFilesAreUsageErrors() throws Exception {
        assertThrows(UsageException.class, () -> breakdown());
        writeRun();
        assertThrows(UsageException.class, () -> breakdown("--nm-logs", dir.resolve("none.log").toString()));
    }
}
