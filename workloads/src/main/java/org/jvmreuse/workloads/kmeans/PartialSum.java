package org.jvmreuse.workloads.kmeans;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.io.Writable;

/** Sum and count of some points of one cluster. */
public class PartialSum implements Writable {
    private long count;
    private double[] sum = new double[0];

    public void set(double[] point) {
        count = 1;
        sum = point;
    }

    public void clear(int dimensions) {
        count = 0;
        sum = new double[dimensions];
    }

    public void add(PartialSum other) {
        if (other.sum.length != sum.length) {
            throw new IllegalArgumentException("points of " + other.sum.length + " and " + sum.length + " dimensions");
        }
        count += other.count;
        for (int i = 0; i < sum.length; i++) {
            sum[i] += other.sum[i];
        }
    }

    public long count() {
        return count;
    }

    public int dimensions() {
        return sum.length;
    }

    public double[] mean() {
        double[] mean = new double[sum.length];
        for (int i = 0; i < sum.length; i++) {
            mean[i] = sum[i] / count;
        }
        return mean;
    }

    @Override
    public void write(DataOutput out) throws IOException {
        out.writeLong(count);
        out.writeInt(sum.length);
        for (double x : sum) {
            out.writeDouble(x);
        }
    }

    @Override
    public void readFields(DataInput in) throws IOException {
        count = in.readLong();
        sum = new double[in.readInt()];
        for (int i = 0; i < sum.length; i++) {
            sum[i] = in.readDouble();
        }
    }
}
