package org.jvmreuse.workloads.chart;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.geom.AffineTransform;
import java.awt.geom.Line2D;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeMap;
import org.jvmreuse.workloads.timing.TaskTiming;

/**
 * A run's timeline (as in the FX10 paper's figures 2 and 8): one bar per task, x = seconds since
 * the first job's submission; the start-up part of a bar (launch to user code) in blue, the work in
 * orange (maps) or green (reduces); iterations as alternating background bands, labelled on top.
 * Rows go by iteration, maps before reduces, then by launch time.
 */
public final class TimelineChart {
    static final Color STARTUP = new Color(0x2f6bd1);
    static final Color MAP_WORK = new Color(0xf28e2b);
    static final Color REDUCE_WORK = new Color(0x3f9e4d);
    private static final Color BAND = new Color(0xeef0f4);
    private static final int LEFT = 60;
    private static final int RIGHT = 25;
    private static final int TOP = 58;
    private static final int BOTTOM = 78;
    private static final int DEFAULT_WIDTH = 1200;

    private TimelineChart() {
    }

    /** A height that gives each task a readable bar (about 14 px, within 400..1600 px in all). */
    public static int defaultHeight(int tasks) {
        return TOP + BOTTOM + Math.max(260, Math.min(1460, tasks * 14));
    }

    public static void write(List<TaskTiming> tasks, String title, Path png) throws IOException {
        Canvas.writePng(render(tasks, title, DEFAULT_WIDTH, defaultHeight(tasks.size())), png);
    }

    public static BufferedImage render(List<TaskTiming> tasks, String title, int width, int height) {
        if (tasks.isEmpty()) {
            throw new IllegalArgumentException("no tasks to draw");
        }
        BufferedImage image = Canvas.image(width, height);
        Graphics2D g = Canvas.graphics(image);
        long origin = tasks.stream().mapToLong(TaskTiming::jobSubmitMs).min().getAsLong();
        long end = tasks.stream().mapToLong(TaskTiming::finishMs).max().getAsLong();
        Rectangle2D plot = new Rectangle2D.Double(LEFT, TOP, width - LEFT - RIGHT, height - TOP - BOTTOM);
        double pxPerMs = plot.getWidth() / Math.max(1, end - origin);
        iterationBands(g, tasks, plot, origin, end, pxPerMs);
        bars(g, tasks, plot, origin, pxPerMs);
        g.setColor(Canvas.AXIS);
        g.draw(plot);
        timeAxis(g, plot, Math.max(1, end - origin) / 1000.0);
        taskAxisTitle(g, plot);
        Canvas.title(g, title, LEFT, 22);
        Canvas.legend(g, List.of(new Canvas.Key(STARTUP, "start-up (launch to user code)"),
                new Canvas.Key(MAP_WORK, "map work"), new Canvas.Key(REDUCE_WORK, "reduce work"),
                new Canvas.Key(BAND, "iteration")), LEFT, height - 14);
        g.dispose();
        return image;
    }

    private static void iterationBands(Graphics2D g, List<TaskTiming> tasks, Rectangle2D plot, long origin, long end,
            double pxPerMs) {
        TreeMap<Integer, Long> starts = new TreeMap<>();
        for (TaskTiming t : tasks) {
            starts.merge(t.iteration(), t.jobSubmitMs(), Math::min);
        }
        List<Integer> iterations = new ArrayList<>(starts.keySet());
        g.setFont(Canvas.SMALL);
        for (int i = 0; i < iterations.size(); i++) {
            int iteration = iterations.get(i);
            double x0 = plot.getX() + (starts.get(iteration) - origin) * pxPerMs;
            long bandEnd = i + 1 < iterations.size() ? starts.get(iterations.get(i + 1)) : end;
            double x1 = plot.getX() + (bandEnd - origin) * pxPerMs;
            if (i % 2 == 0) {
                g.setColor(BAND);
                g.fill(new Rectangle2D.Double(x0, plot.getY(), x1 - x0, plot.getHeight()));
            }
            g.setColor(Color.GRAY);
            g.draw(new Line2D.Double(x0, plot.getY() - 12, x0, plot.getMaxY()));
            String name = iteration == 0 ? "set-up" : "iteration " + iteration;
            if (g.getFontMetrics().stringWidth(name) + 6 > x1 - x0) {
                name = iteration == 0 ? "s" : Integer.toString(iteration);
            }
            g.setColor(Canvas.AXIS);
            g.drawString(name, (float) x0 + 3, (float) plot.getY() - 4);
        }
    }

    private static void bars(Graphics2D g, List<TaskTiming> tasks, Rectangle2D plot, long origin, double pxPerMs) {
        List<TaskTiming> rows = new ArrayList<>(tasks);
        rows.sort(Comparator.comparingInt(TaskTiming::iteration)
                .thenComparing(t -> !TaskTiming.MAP.equals(t.type()))
                .thenComparingLong(TaskTiming::launchMs)
                .thenComparing(TaskTiming::taskId));
        double rowHeight = plot.getHeight() / rows.size();
        double bar = Math.max(1, rowHeight * (rowHeight >= 4 ? 0.72 : 1));
        for (int r = 0; r < rows.size(); r++) {
            TaskTiming t = rows.get(r);
            double y = plot.getY() + r * rowHeight + (rowHeight - bar) / 2;
            double launch = plot.getX() + (t.launchMs() - origin) * pxPerMs;
            double code = t.hasCodeStart() ? plot.getX() + (t.codeStartMs() - origin) * pxPerMs : launch;
            double finish = plot.getX() + (t.finishMs() - origin) * pxPerMs;
            g.setColor(STARTUP);
            g.fill(new Rectangle2D.Double(launch, y, Math.max(code - launch, t.hasCodeStart() ? 1 : 0), bar));
            g.setColor(TaskTiming.MAP.equals(t.type()) ? MAP_WORK : REDUCE_WORK);
            g.fill(new Rectangle2D.Double(code, y, Math.max(1, finish - code), bar));
        }
    }

    private static void timeAxis(Graphics2D g, Rectangle2D plot, double seconds) {
        double step = Axis.step(seconds, Math.max(2, (int) (plot.getWidth() / 70)));
        g.setFont(Canvas.TEXT);
        for (double s = 0; s <= seconds + 1e-9; s += step) {
            float x = (float) (plot.getX() + s / seconds * plot.getWidth());
            g.setColor(Canvas.AXIS);
            g.setStroke(new BasicStroke(1));
            g.draw(new Line2D.Double(x, plot.getMaxY(), x, plot.getMaxY() + 5));
            String label = Axis.label(s, step);
            g.drawString(label, x - g.getFontMetrics().stringWidth(label) / 2f, (float) plot.getMaxY() + 19);
        }
        String title = "seconds since the first job's submission";
        g.drawString(title, (float) (plot.getCenterX() - g.getFontMetrics().stringWidth(title) / 2.0),
                (float) plot.getMaxY() + 37);
    }

    private static void taskAxisTitle(Graphics2D g, Rectangle2D plot) {
        AffineTransform saved = g.getTransform();
        g.setFont(Canvas.TEXT);
        g.setColor(Canvas.AXIS);
        String title = "tasks";
        g.rotate(-Math.PI / 2);
        g.drawString(title, (float) -(plot.getCenterY() + g.getFontMetrics().stringWidth(title) / 2.0), LEFT - 18f);
        g.setTransform(saved);
    }
}
