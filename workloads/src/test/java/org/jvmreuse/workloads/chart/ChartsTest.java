package org.jvmreuse.workloads.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.Color;
import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jvmreuse.workloads.breakdown.JobPath;
import org.jvmreuse.workloads.breakdown.Phase;
import org.jvmreuse.workloads.timing.JobTiming;
import org.jvmreuse.workloads.timing.ResultsCsv;
import org.jvmreuse.workloads.timing.RunResult;
import org.jvmreuse.workloads.timing.TaskTiming;
import org.jvmreuse.workloads.timing.TimingRecorder;

class ChartsTest {
    @TempDir
    Path dir;

    /** Two iterations of two maps and one reduce each, starting 1 s after the job's submission. */
    private static List<TaskTiming> run() {
        List<TaskTiming> tasks = new ArrayList<>();
        for (int it = 1; it <= 2; it++) {
            long submit = (it - 1) * 20_000L;
            for (int m = 0; m < 2; m++) {
                tasks.add(new TaskTiming("pr", it, "job_" + it, "m" + m, "a", TaskTiming.MAP, submit, submit + 3_000,
                        submit + 4_000 + m * 100, submit + 9_000));
            }
            tasks.add(new TaskTiming("pr", it, "job_" + it, "r", "a", TaskTiming.REDUCE, submit, submit + 5_000,
                    submit + 6_000, submit + 15_000));
        }
        return tasks;
    }

    @Test
    void timelineIsADecodablePngOfTheRequestedSizeWithAllThreeColours() throws Exception {
        TimingRecorder recorder = new TimingRecorder(dir, "pr");
        recorder.tasks(run());
        Path png = dir.resolve("t.png");
        assertEquals(0, ChartCommand.run(new String[] {"timeline", "--csv", recorder.tasksFile().toString(), "--out",
                png.toString(), "--title", "test", "--width", "900", "--height", "500"}));
        BufferedImage image = ImageIO.read(png.toFile());
        assertNotNull(image);
        assertEquals(900, image.getWidth());
        assertEquals(500, image.getHeight());
        assertTrue(pixels(image, TimelineChart.STARTUP) > 100, "start-up parts drawn");
        assertTrue(pixels(image, TimelineChart.MAP_WORK) > 1000, "map work drawn");
        assertTrue(pixels(image, TimelineChart.REDUCE_WORK) > 1000, "reduce work drawn");
    }

    @Test
    void timelineWritesItsDefaultSize() throws Exception {
        Path png = dir.resolve("d.png");
        TimelineChart.write(run(), List.of(), "default", png);
        BufferedImage image = ImageIO.read(png.toFile());
        assertEquals(1200, image.getWidth());
        assertEquals(TimelineChart.defaultHeight(6), image.getHeight());
    }

    /** The job paths of {@link #run()}'s two iterations (AM launches logged for the first only). */
    private static List<JobPath> paths(boolean uberSecond) {
        List<JobPath> paths = new ArrayList<>();
        for (int it = 1; it <= 2; it++) {
            long submit = (it - 1) * 20_000L;
            boolean uber = uberSecond && it == 2;
            paths.add(new JobPath("pr", it, "job_" + it, uber, "stock", it == 1, submit + 1_500,
                    Arrays.asList(it == 1 ? null : 15_500L, submit, submit + 200, submit + 1_000, submit + 2_500,
                            uber ? submit + 2_500 : submit + 3_000, submit + 4_000, submit + 15_000, submit + 16_000,
                            submit + 17_000)));
        }
        return paths;
    }

    @Test
    void timelineDrawsEachJobsPathOutsideItsTasksInItsOwnColours() throws Exception {
        BufferedImage image = TimelineChart.render(run(), paths(false), "jobs", 900, 500);
        for (Phase p : List.of(Phase.SUBMISSION, Phase.AM_ALLOCATION, Phase.AM_START, Phase.TASK_ALLOCATION, Phase.COMMIT)) {
            assertTrue(pixels(image, TimelineChart.JOB_PHASES.get(p)) > 150, p + " drawn");
        }
        assertTrue(pixels(image, TimelineChart.MAP_WORK) > 1000, "map work drawn");
    }

    @Test
    void timelineDrawsUberIterationsAndIterationsWithoutTasks() throws Exception {
        // Iteration 2 ran uber: its tasks' finish is recorded after the last one, each is drawn to the next launch.
        List<TaskTiming> tasks = new ArrayList<>(run().subList(0, 3));
        for (int m = 0; m < 2; m++) {
            tasks.add(new TaskTiming("pr", 2, "job_2", "m" + m, "a", TaskTiming.MAP, 20_000, 23_000 + m * 2_000,
                    23_100 + m * 2_000, 35_000));
        }
        tasks.add(new TaskTiming("pr", 2, "job_2", "r", "a", TaskTiming.REDUCE, 20_000, 27_000, 27_100, 35_000));
        BufferedImage uber = TimelineChart.render(tasks, paths(true), "uber", 900, 500);
        assertTrue(pixels(uber, TimelineChart.JOB_PHASES.get(Phase.AM_START)) > 150, "uber job drawn");
        assertTrue(pixels(uber, TimelineChart.REDUCE_WORK) > 1000, "reduce work drawn");

        Path png = dir.resolve("jobs-only.png");
        TimelineChart.write(List.of(), paths(true), "no task reports", png);
        BufferedImage jobsOnly = ImageIO.read(png.toFile());
        assertEquals(TimelineChart.defaultHeight(2), jobsOnly.getHeight());
        assertTrue(pixels(jobsOnly, TimelineChart.JOB_PHASES.get(Phase.COMMIT)) > 150, "jobs drawn without tasks");
    }

    @Test
    void timelineCommandReadsTheJobsFileNextToTheTasksFile() throws Exception {
        TimingRecorder recorder = new TimingRecorder(dir, "pr");
        recorder.tasks(run());
        recorder.jobs(List.of(new JobTiming("pr", 1, "job_1", 0, 200, 1_500, "container_1_0001_01_000001", "n:1", 1,
                false, 2_500, 16_000, 17_000)));
        Path png = dir.resolve("j.png");
        assertEquals(0, ChartCommand.run(new String[] {"timeline", "--csv", recorder.tasksFile().toString(), "--out",
                png.toString(), "--width", "900", "--height", "500"}));
        assertTrue(pixels(ImageIO.read(png.toFile()), TimelineChart.JOB_PHASES.get(Phase.AM_START)) > 150, "job drawn");
    }

    @Test
    void comparisonDrawsStockUberAndPoolInTheirColours() throws Exception {
        Path csv = dir.resolve("results3.csv");
        for (String mode : new String[] {"pool", "uber", "stock"}) {
            for (int iterations : new int[] {1, 8}) {
                ResultsCsv.append(csv, new RunResult("kmeans", iterations, mode, 4_000L * iterations, 500L * iterations));
            }
        }
        BufferedImage image = CompareChart.render(ResultsCsv.read(csv), "three", 800, 450);
        for (Color c : CompareChart.MODE_COLORS.values()) {
            assertTrue(pixels(image, c) > 500, "bars in " + c);
        }
    }

    @Test
    void comparisonIsADecodablePngWithBothModesAndTheirStartUpParts() throws Exception {
        Path csv = dir.resolve("results.csv");
        for (int iterations : new int[] {1, 2, 4, 8}) {
            ResultsCsv.append(csv, new RunResult("pagerank", iterations, "stock", 15_000L * iterations, 5_000L * iterations));
            ResultsCsv.append(csv, new RunResult("pagerank", iterations, "pool", 11_000L * iterations, 1_000L * iterations));
        }
        ResultsCsv.append(csv, new RunResult("kmeans", 1, "stock", 1, 0));
        Path png = dir.resolve("c.png");
        assertEquals(0, ChartCommand.run(new String[] {"compare", "--csv", csv.toString(), "--out", png.toString(),
                "--width", "800", "--height", "450"}));
        BufferedImage image = ImageIO.read(png.toFile());
        assertNotNull(image);
        assertEquals(800, image.getWidth());
        assertEquals(450, image.getHeight());
        Color stock = new Color(0x9aa9bb);
        Color pool = new Color(0x4e9ad6);
        for (Color c : new Color[] {stock, stock.darker(), pool, pool.darker()}) {
            assertTrue(pixels(image, c) > 500, "bars in " + c);
        }
    }

    private static int pixels(BufferedImage image, Color color) {
        int count = 0;
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                count += (image.getRGB(x, y) & 0xffffff) == (color.getRGB() & 0xffffff) ? 1 : 0;
            }
        }
        return count;
    }
}
