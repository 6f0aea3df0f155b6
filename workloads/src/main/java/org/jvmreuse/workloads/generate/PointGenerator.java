package org.jvmreuse.workloads.generate;

import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Random;
import org.jvmreuse.workloads.kmeans.Points;

/**
 * Gaussian blobs: k centres drawn uniformly from [-spread, spread]^d, then each point picks a centre
 * at random and adds N(0, sigma^2) noise per coordinate. Lines are comma-separated doubles; the same
 * for the same settings on every JVM (java.util.Random's nextGaussian is specified with StrictMath).
 */
public final class PointGenerator implements Iterator<String> {
    private final long points;
    private final double sigma;
    private final Random random;
    private final double[][] centres;
    private long next;

    public PointGenerator(long points, int k, int dimensions, double sigma, double spread, long seed) {
        if (points < 0 || k < 1 || dimensions < 1 || sigma < 0 || spread < 0) {
            throw new IllegalArgumentException("need points >= 0, k >= 1, dimensions >= 1, sigma and spread >= 0");
        }
        this.points = points;
        this.sigma = sigma;
        random = new Random(seed);
        centres = new double[k][dimensions];
        for (double[] centre : centres) {
            for (int j = 0; j < dimensions; j++) {
                centre[j] = (2 * random.nextDouble() - 1) * spread;
            }
        }
    }

    /** The blob centres (a copy). */
    public double[][] centres() {
        double[][] copy = new double[centres.length][];
        for (int i = 0; i < centres.length; i++) {
            copy[i] = centres[i].clone();
        }
        return copy;
    }

    @Override
    public boolean hasNext() {
        return next < points;
    }

    @Override
    public String next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        next++;
        double[] centre = centres[random.nextInt(centres.length)];
        double[] point = new double[centre.length];
        for (int j = 0; j < point.length; j++) {
            point[j] = centre[j] + sigma * random.nextGaussian();
        }
        return Points.format(point);
    }
}
