package org.jvmreuse.workloads.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.Color;
import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
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
        TimelineChart.write(run(), "default", png);
        BufferedImage image = ImageIO.read(png.toFile());
        assertEquals(1200, image.getWidth());
        assertEquals(TimelineChart.defaultHeight(6), image.getHeight());
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
