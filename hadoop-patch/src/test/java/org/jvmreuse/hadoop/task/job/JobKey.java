package org.jvmreuse.hadoop.task.job;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.io.WritableComparable;
import org.apache.hadoop.io.WritableComparator;

/** A job's key type that registers its raw comparator, as Hadoop's own Writables do. */
public class JobKey implements WritableComparable<JobKey> {
    static {
        WritableComparator.define(JobKey.class, new Comparator());
    }

    private int value;

    public JobKey() {
    }

    public JobKey(int value) {
        this.value = value;
    }

    @Override
    public void write(DataOutput out) throws IOException {
        out.writeInt(value);
    }

    @Override
    public void readFields(DataInput in) throws IOException {
        value = in.readInt();
    }

    @Override
    public int compareTo(JobKey o) {
        return Integer.compare(value, o.value);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof JobKey k && k.value == value;
    }

    @Override
    public int hashCode() {
        return value;
    }

    /** Raw comparator of JobKey. */
    public static class Comparator extends WritableComparator {
        public Comparator() {
            super(JobKey.class);
        }

        @Override
        public int compare(byte[] b1, int s1, int l1, byte[] b2, int s2, int l2) {
            return Integer.compare(readInt(b1, s1), readInt(b2, s2));
        }
    }
}
