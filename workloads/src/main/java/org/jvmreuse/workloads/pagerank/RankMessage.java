package org.jvmreuse.workloads.pagerank;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;

/** What reaches a node's reducer: either the node itself (its old rank and out-links) or a rank contribution. */
public class RankMessage implements Writable {
    private boolean node;
    private double value;
    private String neighbours = "";

    public void setNode(double rank, String links) {
        node = true;
        value = rank;
        neighbours = links;
    }

    public void setContribution(double mass) {
        node = false;
        value = mass;
        neighbours = "";
    }

    public boolean isNode() {
        return node;
    }

    /** The old rank of a node message, the mass of a contribution. */
    public double value() {
        return value;
    }

    public String neighbours() {
        return neighbours;
    }

    @Override
    public void write(DataOutput out) throws IOException {
        out.writeBoolean(node);
        out.writeDouble(value);
        if (node) {
            Text.writeString(out, neighbours);
        }
    }

    @Override
    public void readFields(DataInput in) throws IOException {
        node = in.readBoolean();
        value = in.readDouble();
        neighbours = node ? Text.readString(in) : "";
    }
}
