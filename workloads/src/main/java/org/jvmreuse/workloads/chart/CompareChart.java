package org.jvmreuse.workloads.chart;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.geom.AffineTransform;
import java.awt.geom.Line2D;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.jvmreuse.workloads.timing.RunResult;

/**
 * Total time per iteration count, one bar per mode (e.g. stock, uber, pool) side by side, as in the
 * FX10 paper's figure 9; the lower, darker part of a bar is the task start-up time within it, with its
 * share printed when there is room. Several runs of one (iterations, mode) are drawn as their medians.
 * The benchmark's modes come in the order stock, uber, pool, each in a colour of its own; other modes
 * follow in the order of their first row.
 */
public final class CompareChart {
    static final Map<String, Color> MODE_COLORS =
            Map.of("stock", new Color(0x9aa9bb), "uber", new Color(0xf2a05b), "pool", new Color(0x4e9ad6));
    private static final List<String> MODE_ORDER = List.of("stock", "uber", "pool");
    private static final Color[] OTHERS = {new Color(0x7cc47f), new Color(0xc19acb), new Color(0xd6c04e)};
    private static final int LEFT = 70;
    private static final int RIGHT = 25;
    private static final int TOP = 50;
    private static final int BOTTOM = 80;

    private CompareChart() {
    }

    public static BufferedImage render(List<RunResult> results, String title, int width, int height) {
        if (results.isEmpty()) {
            throw new IllegalArgumentException("no results to draw");
        }
        List<String> modes = modes(results);
        TreeSet<Integer> counts = new TreeSet<>(results.stream().map(RunResult::iterations).toList());
        List<Color> colors = colors(modes);
        Map<String, long[]> medians = medians(results);
        double maxSeconds = medians.values().stream().mapToLong(m -> m[0]).max().getAsLong() / 1000.0;

        BufferedImage image = Canvas.image(width, height);
        Graphics2D g = Canvas.graphics(image);
        Rectangle2D plot = new Rectangle2D.Double(LEFT, TOP, width - LEFT - RIGHT, height - TOP - BOTTOM);
        double step = Axis.step(maxSeconds * 1.1, 8);
        double top = Math.max(step, Math.ceil(maxSeconds * 1.1 / step) * step);
        valueAxis(g, plot, top, step);

        double groupWidth = plot.getWidth() / counts.size();
        double barWidth = groupWidth * 0.78 / modes.size();
        int group = 0;
        for (int iterations : counts) {
            double groupX = plot.getX() + group++ * groupWidth + groupWidth * 0.11;
            for (int m = 0; m < modes.size(); m++) {
                long[] median = medians.get(key(iterations, modes.get(m)));
                if (median != null) {
                    bar(g, plot, top, groupX + m * barWidth, barWidth, median, colors.get(m));
                }
            }
            g.setFont(Canvas.TEXT);
            g.setColor(Canvas.AXIS);
            String label = iterations + (iterations == 1 ? " iteration" : " iterations");
            g.drawString(label, (float) (groupX + barWidth * modes.size() / 2 - g.getFontMetrics().stringWidth(label) / 2.0),
                    (float) plot.getMaxY() + 18);
        }
        g.setColor(Canvas.AXIS);
        g.draw(new Line2D.Double(plot.getX(), plot.getMaxY(), plot.getMaxX(), plot.getMaxY()));
        Canvas.title(g, title, LEFT, 24);
        List<Canvas.Key> keys = new ArrayList<>();
        for (int m = 0; m < modes.size(); m++) {
            keys.add(new Canvas.Key(colors.get(m), modes.get(m)));
        }
        for (int m = 0; m < modes.size(); m++) {
            keys.add(new Canvas.Key(colors.get(m).darker(), modes.get(m) + ": task start-up"));
        }
        Canvas.legend(g, keys, LEFT, height - 16);
        g.dispose();
        return image;
    }

    /** Medians of total and start-up time per (iterations, mode). */
    private static Map<String, long[]> medians(List<RunResult> results) {
        Map<String, List<RunResult>> groups = new TreeMap<>();
        for (RunResult r : results) {
            groups.computeIfAbsent(key(r.iterations(), r.mode()), k -> new ArrayList<>()).add(r);
        }
        Map<String, long[]> medians = new TreeMap<>();
        groups.forEach((k, runs) -> medians.put(k, new long[] {
            median(runs.stream().mapToLong(RunResult::totalMs).sorted().toArray()),
            median(runs.stream().mapToLong(RunResult::startupMs).sorted().toArray()),
        }));
        return medians;
    }

    private static long median(long[] sorted) {
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    private static String key(int iterations, String mode) {
        return iterations + "\u0000" + mode;
    }

    /** stock, uber, pool (those present), then the other modes in the order of their first row. */
    private static List<String> modes(List<RunResult> results) {
        LinkedHashSet<String> present = new LinkedHashSet<>(results.stream().map(RunResult::mode).toList());
        List<String> modes = new ArrayList<>(MODE_ORDER.stream().filter(present::contains).toList());
        present.stream().filter(m -> !MODE_ORDER.contains(m)).forEach(modes::add);
        return modes;
    }

    private static List<Color> colors(List<String> modes) {
        List<Color> colors = new ArrayList<>();
        int other = 0;
        for (String mode : modes) {
            colors.add(MODE_COLORS.containsKey(mode) ? MODE_COLORS.get(mode) : OTHERS[other++ % OTHERS.length]);
        }
        return colors;
    }

    private static void bar(Graphics2D g, Rectangle2D plot, double top, double x, double width, long[] median, Color color) {
        double total = median[0] / 1000.0;
        double startup = Math.min(median[1], median[0]) / 1000.0;
        double pxPerSecond = plot.getHeight() / top;
        double w = width * 0.92;
        g.setColor(color);
        g.fill(new Rectangle2D.Double(x, plot.getMaxY() - total * pxPerSecond, w, total * pxPerSecond));
        g.setColor(color.darker());
        g.fill(new Rectangle2D.Double(x, plot.getMaxY() - startup * pxPerSecond, w, startup * pxPerSecond));
        g.setFont(Canvas.SMALL);
        g.setColor(Canvas.AXIS);
        String value = String.format("%.1f s", total);
        g.drawString(value, (float) (x + w / 2 - g.getFontMetrics().stringWidth(value) / 2.0),
                (float) (plot.getMaxY() - total * pxPerSecond - 4));
        String share = String.format("%.0f%%", 100 * startup / total);
        if (startup * pxPerSecond >= 14 && g.getFontMetrics().stringWidth(share) < w) {
            g.setColor(Color.WHITE);
            g.drawString(share, (float) (x + w / 2 - g.getFontMetrics().stringWidth(share) / 2.0),
                    (float) (plot.getMaxY() - startup * pxPerSecond / 2 + 4));
        }
    }

    private static void valueAxis(Graphics2D g, Rectangle2D plot, double top, double step) {
        g.setFont(Canvas.TEXT);
        for (double s = 0; s <= top + 1e-9; s += step) {
            double y = plot.getMaxY() - s / top * plot.getHeight();
            g.setColor(Canvas.GRID);
            g.draw(new Line2D.Double(plot.getX(), y, plot.getMaxX(), y));
            g.setColor(Canvas.AXIS);
            String label = Axis.label(s, step);
            g.drawString(label, (float) (plot.getX() - 8 - g.getFontMetrics().stringWidth(label)), (float) y + 4);
        }
        g.draw(new Line2D.Double(plot.getX(), plot.getY(), plot.getX(), plot.getMaxY()));
        AffineTransform saved = g.getTransform();
        g.rotate(-Math.PI / 2);
        String title = "seconds (first submission to last completion)";
        g.drawString(title, (float) -(plot.getCenterY() + g.getFontMetrics().stringWidth(title) / 2.0), 18f);
        g.setTransform(saved);
    }
}
