package org.jvmreuse.workloads.kmeans;

import java.util.regex.Pattern;

/** Text form of a point: doubles separated by commas and/or white space ("1.5,2" or "1.5 2"). */
public final class Points {
    private static final Pattern SEPARATOR = Pattern.compile("[,\\s]+");

    private Points() {
    }

    /** The point of a line, or null for a blank line. */
    public static double[] parse(String line) {
        String trimmed = line.trim();
        if (trimmed.isEmpty()) {
            return null;
        }
        String[] fields = SEPARATOR.split(trimmed);
        double[] point = new double[fields.length];
        try {
            for (int i = 0; i < fields.length; i++) {
                point[i] = Double.parseDouble(fields[i]);
            }
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a point: " + line);
        }
        return point;
    }

    /** Comma-separated, exact (Double.toString reads back to the same double). */
    public static String format(double[] point) {
        StringBuilder text = new StringBuilder();
        for (double x : point) {
            text.append(text.length() == 0 ? "" : ",").append(x);
        }
        return text.toString();
    }
}
