package org.jvmreuse.workloads.chart;

/** Tick spacing for a seconds axis: 1, 2 or 5 times a power of ten. */
final class Axis {
    private Axis() {
    }

    /** The smallest nice step that cuts {@code range} into at most {@code maxTicks} parts. */
    static double step(double range, int maxTicks) {
        if (range <= 0) {
            return 1;
        }
        double raw = range / maxTicks;
        double magnitude = Math.pow(10, Math.floor(Math.log10(raw)));
        for (double m : new double[] {1, 2, 5}) {
            if (m * magnitude >= raw) {
                return m * magnitude;
            }
        }
        return 10 * magnitude;
    }

    /** A tick label with as many decimals as the step needs. */
    static String label(double value, double step) {
        int decimals = step >= 1 ? 0 : (int) Math.ceil(-Math.log10(step) - 1e-9);
        return String.format("%." + decimals + "f", value);
    }
}
