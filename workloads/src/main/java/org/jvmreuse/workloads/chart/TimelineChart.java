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
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.jvmreuse.workloads.breakdown.JobPath;
import org.jvmreuse.workloads.breakdown.Phase;
import org.jvmreuse.workloads.timing.TaskTiming;

/**
 * A run's timeline (as in the FX10 paper's figures 2 and 8): one bar per task, x = seconds since
 * the first job's submission; the start-up part of a bar (launch to user code) in blue, the work in
 * orange (maps) or green (reduces); iterations as alternating background bands, labelled on top.
 * Above each iteration's tasks, when the job's path is known ({@link JobPath}), a row with the job's
 * path outside its tasks: submission, AM allocation, AM start, first task allocation, commit and
 * completion, each in a colour of its own. Rows go by iteration, the job first, then maps before
 * reduces, then by launch time. Uber tasks run one after another inside the AM, and Hadoop 2.2 records
 * their finish only after the last one: each is drawn up to the next one's launch.
 */
public final class TimelineChart {
    static final Color STARTUP = new Color(0x2f6bd1);
    static final Color MAP_WORK = new Color(0xf28e2b);
    static final Color REDUCE_WORK = new Color(0x3f9e4d);
    static final Map<Phase, Color> JOB_PHASES = jobPhases();
    private static final Color BAND = new Color(0xeef0f4);
    private static final int LEFT = 60;
    private static final int RIGHT = 25;
    private static final int TOP = 58;
    private static final int BOTTOM = 96;
    private static final int DEFAULT_WIDTH = 1200;

    /** One row: a job's path ({@code task} null) or a task, drawn up to {@code finishMs}. */
    private record Row(int iteration, JobPath job, TaskTiming task, long startMs, long finishMs) {
    }

    private TimelineChart() {
    }

    private static Map<Phase, Color> jobPhases() {
        Map<Phase, Color> colors = new EnumMap<>(Phase.class);
        colors.put(Phase.SUBMISSION, new Color(0xa0a0a0));
        colors.put(Phase.AM_ALLOCATION, new Color(0x8e6bbf));
        colors.put(Phase.AM_START, new Color(0xd1495b));
        colors.put(Phase.TASK_ALLOCATION, new Color(0xe9c46a));
        colors.put(Phase.COMMIT, new Color(0x2a9d8f));
        colors.put(Phase.COMPLETION, new Color(0x2a9d8f));
        return Collections.unmodifiableMap(colors);
    }

    /** A height that gives each row (task or job) a readable bar (about 14 px, within 400..1600 px in all). */
    public static int defaultHeight(int rows) {
        return TOP + BOTTOM + Math.max(260, Math.min(1460, rows * 14));
    }

    public static void write(List<TaskTiming> tasks, List<JobPath> jobs, String title, Path png) throws IOException {
        Canvas.writePng(render(tasks, jobs, title, DEFAULT_WIDTH, defaultHeight(tasks.size() + jobs.size())), png);
    }

    public static BufferedImage render(List<TaskTiming> tasks, List<JobPath> jobs, String title, int width, int height) {
        if (tasks.isEmpty() && jobs.isEmpty()) {
            throw new IllegalArgumentException("no tasks and no jobs to draw");
        }
        List<Row> rows = rows(tasks, jobs);
        BufferedImage image = Canvas.image(width, height);
        Graphics2D g = Canvas.graphics(image);
        long origin = rows.stream().mapToLong(Row::startMs).min().getAsLong();
        long end = rows.stream().mapToLong(Row::finishMs).max().getAsLong();
        Rectangle2D plot = new Rectangle2D.Double(LEFT, TOP, width - LEFT - RIGHT, height - TOP - BOTTOM);
        double pxPerMs = plot.getWidth() / Math.max(1, end - origin);
        iterationBands(g, rows, plot, origin, end, pxPerMs);
        bars(g, rows, plot, origin, pxPerMs);
        g.setColor(Canvas.AXIS);
        g.draw(plot);
        timeAxis(g, plot, Math.max(1, end - origin) / 1000.0);
        rowAxisTitle(g, plot);
        Canvas.title(g, title, LEFT, 22);
        Canvas.legend(g, List.of(new Canvas.Key(STARTUP, "start-up (launch to user code)"),
                new Canvas.Key(MAP_WORK, "map work"), new Canvas.Key(REDUCE_WORK, "reduce work"),
                new Canvas.Key(BAND, "iteration")), LEFT, height - 32);
        Canvas.legend(g, List.of(new Canvas.Key(JOB_PHASES.get(Phase.SUBMISSION), "job: submission"),
                new Canvas.Key(JOB_PHASES.get(Phase.AM_ALLOCATION), "AM allocation"),
                new Canvas.Key(JOB_PHASES.get(Phase.AM_START), "AM start"),
                new Canvas.Key(JOB_PHASES.get(Phase.TASK_ALLOCATION), "first task allocation"),
                new Canvas.Key(JOB_PHASES.get(Phase.COMMIT), "commit + completion")), LEFT, height - 12);
        g.dispose();
        return image;
    }

    /** Per iteration: the job's row, then maps before reduces, by launch time. */
    private static List<Row> rows(List<TaskTiming> tasks, List<JobPath> jobs) {
        Set<String> uber = new HashSet<>();
        List<Row> rows = new ArrayList<>();
        for (JobPath job : jobs) {
            rows.add(new Row(job.iteration(), job, null, job.start(Phase.SUBMISSION), job.end(Phase.COMPLETION)));
            if (job.uberized()) {
                uber.add(job.jobId());
            }
        }
        Map<String, List<Long>> uberLaunches = tasks.stream().filter(t -> uber.contains(t.jobId()))
                .collect(Collectors.groupingBy(TaskTiming::jobId, Collectors.mapping(TaskTiming::launchMs, Collectors.toList())));
        for (TaskTiming t : tasks) {
            long finish = uberLaunches.getOrDefault(t.jobId(), List.of()).stream().filter(l -> l > t.launchMs())
                    .reduce(t.finishMs(), Math::min);
            rows.add(new Row(t.iteration(), null, t, t.jobSubmitMs(), Math.max(finish, t.launchMs())));
        }
        rows.sort(Comparator.comparingInt(Row::iteration)
                .thenComparing(r -> r.task() != null)
                .thenComparing(r -> r.task() != null && !TaskTiming.MAP.equals(r.task().type()))
                .thenComparingLong(r -> r.task() == null ? 0 : r.task().launchMs())
                .thenComparing(r -> r.task() == null ? "" : r.task().taskId()));
        return rows;
    }

    private static void iterationBands(Graphics2D g, List<Row> rows, Rectangle2D plot, long origin, long end,
            double pxPerMs) {
        TreeMap<Integer, Long> starts = new TreeMap<>();
        for (Row r : rows) {
            starts.merge(r.iteration(), r.startMs(), Math::min);
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

    private static void bars(Graphics2D g, List<Row> rows, Rectangle2D plot, long origin, double pxPerMs) {
        double rowHeight = plot.getHeight() / rows.size();
        double bar = Math.max(1, rowHeight * (rowHeight >= 4 ? 0.72 : 1));
        for (int r = 0; r < rows.size(); r++) {
            double y = plot.getY() + r * rowHeight + (rowHeight - bar) / 2;
            if (rows.get(r).task() == null) {
                jobBar(g, rows.get(r).job(), plot.getX(), y, bar, origin, pxPerMs);
            } else {
                taskBar(g, rows.get(r), plot.getX(), y, bar, origin, pxPerMs);
            }
        }
    }

    private static void jobBar(Graphics2D g, JobPath job, double left, double y, double bar, long origin, double pxPerMs) {
        for (Map.Entry<Phase, Color> phase : JOB_PHASES.entrySet()) {
            Long ms = job.ms(phase.getKey());
            if (ms != null && ms >= 0) {
                g.setColor(phase.getValue());
                g.fill(new Rectangle2D.Double(left + (job.start(phase.getKey()) - origin) * pxPerMs, y,
                        Math.max(1, ms * pxPerMs), bar));
            }
        }
    }

    private static void taskBar(Graphics2D g, Row row, double left, double y, double bar, long origin, double pxPerMs) {
        TaskTiming t = row.task();
        double launch = left + (t.launchMs() - origin) * pxPerMs;
        double code = t.hasCodeStart() ? left + (t.codeStartMs() - origin) * pxPerMs : launch;
        double finish = left + (row.finishMs() - origin) * pxPerMs;
        g.setColor(STARTUP);
        g.fill(new Rectangle2D.Double(launch, y, Math.max(code - launch, t.hasCodeStart() ? 1 : 0), bar));
        g.setColor(TaskTiming.MAP.equals(t.type()) ? MAP_WORK : REDUCE_WORK);
        g.fill(new Rectangle2D.Double(code, y, Math.max(1, finish - code), bar));
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

    private static void rowAxisTitle(Graphics2D g, Rectangle2D plot) {
        AffineTransform saved = g.getTransform();
        g.setFont(Canvas.TEXT);
        g.setColor(Canvas.AXIS);
        String title = "jobs and their tasks";
        g.rotate(-Math.PI / 2);
        g.drawString(title, (float) -(plot.getCenterY() + g.getFontMetrics().stringWidth(title) / 2.0), LEFT - 18f);
        g.setTransform(saved);
    }
}
