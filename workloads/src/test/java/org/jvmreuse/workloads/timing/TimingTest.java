package org.jvmreuse.workloads.timing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.mapred.TIPStatus;
import org.apache.hadoop.mapred.TaskID;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskReport;
import org.apache.hadoop.mapreduce.TaskType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TimingTest {
    @TempDir
    Path dir;

    static TaskTiming task(int iteration, String type, long launch, long codeStart, long finish) {
        return new TaskTiming("run", iteration, "job_1_000" + iteration, "task_" + type + launch,
                "attempt_" + type + launch, type, 1000L * iteration, launch, codeStart, finish);
    }

    @Test
    void taskAndIterationFilesReadBackAsWritten() throws Exception {
        TimingRecorder recorder = new TimingRecorder(dir.resolve("timings"), "run");
        List<TaskTiming> tasks = List.of(task(1, TaskTiming.MAP, 1100, 1900, 3000),
                task(1, TaskTiming.REDUCE, 1500, -1, 4000));
        recorder.tasks(tasks);
        recorder.iteration(new IterationTiming("run", 0, "job_1_0000", 0, 900, Double.NaN));
        recorder.iteration(new IterationTiming("run", 1, "job_1_0001", 1000, 4100, 0.125));
        assertEquals(tasks, TimingCsv.readTasks(recorder.tasksFile()));
        List<IterationTiming> iterations = TimingCsv.readIterations(recorder.iterationsFile());
        assertEquals(recorder.iterations(), iterations);
        assertEquals(3100, iterations.get(1).submitToFinishMs());
        assertTrue(Double.isNaN(iterations.get(0).change()));
    }

    @Test
    void theJobsFileReadsBackAsWritten() throws Exception {
        TimingRecorder recorder = new TimingRecorder(dir, "run");
        List<JobTiming> jobs = List.of(
                new JobTiming("run", 0, "job_1_0001", 100, 150, 900, "container_1_0001_01_000001", "localhost:4", 1, false,
                        2_000, 3_000, 3_100),
                new JobTiming("run", 1, "job_1_0002", 3_200, 3_250, 3_400, "container_1_0002_02_000001", "localhost:5", 2,
                        true, 4_000, 4_500, 4_700));
        recorder.jobs(jobs);
        assertEquals(jobs, TimingCsv.readJobs(recorder.jobsFile()));
        new TimingRecorder(dir, "run");
        assertFalse(java.nio.file.Files.exists(recorder.jobsFile()), "a new run of the label starts without the old jobs file");
    }

    @Test
    void resultsAreAppended() throws Exception {
        Path file = dir.resolve("results.csv");
        RunResult stock = new RunResult("pagerank", 4, "stock", 60_000, 20_000);
        RunResult pool = new RunResult("pagerank", 4, "pool", 40_000, 3_000);
        ResultsCsv.append(file, stock);
        ResultsCsv.append(file, pool);
        assertEquals(List.of(stock, pool), ResultsCsv.read(file));
    }

    @Test
    void valuesWithCommasAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> Csv.row("a,b", 1));
    }

    @Test
    void startupTimeIsTheUnionOfTheStartUpIntervals() {
        List<TaskTiming> tasks = List.of(task(1, TaskTiming.MAP, 0, 10, 50), task(1, TaskTiming.MAP, 5, 15, 60),
                task(1, TaskTiming.REDUCE, 20, 25, 70), task(1, TaskTiming.REDUCE, 30, -1, 80));
        assertEquals(20, StartupTime.union(tasks));
        assertEquals(0, StartupTime.union(List.of()));
    }

    @Test
    void taskReportsBecomeRowsWithTheCodeStartCounter() {
        JobID job = new JobID("1700000000000", 3);
        Counters counters = new Counters();
        counters.findCounter(Timeline.GROUP, Timeline.CODE_START_MS).setValue(5_500);
        TaskID first = new TaskID(org.apache.hadoop.mapred.JobID.downgrade(job), TaskType.MAP, 0);
        TaskReport started = new TaskReport(first, 1f, "", new String[0], TIPStatus.COMPLETE, 5_000, 9_000, counters) {
            {
                setSuccessfulAttemptId(new TaskAttemptID(first, 0));
            }
        };
        TaskReport silent = new TaskReport(new TaskID(org.apache.hadoop.mapred.JobID.downgrade(job), TaskType.MAP, 1),
                1f, "", new String[0], TIPStatus.COMPLETE, 5_100, 9_100, new Counters());
        List<TaskTiming> rows = TaskReports.toTimings(new TaskReport[] {started, silent}, TaskTiming.MAP, "run", 2,
                job.toString(), 4_000);
        assertEquals(new TaskTiming("run", 2, "job_1700000000000_0003", "task_1700000000000_0003_m_000000",
                "attempt_1700000000000_0003_m_000000_0",
                TaskTiming.MAP, 4_000, 5_000, 5_500, 9_000), rows.get(0));
        assertEquals(500, rows.get(0).startupMs());
        assertEquals(-1, rows.get(1).codeStartMs());
        assertEquals("", rows.get(1).attemptId(), "no successful attempt");
        assertEquals(0, rows.get(1).startupMs());
    }
}
