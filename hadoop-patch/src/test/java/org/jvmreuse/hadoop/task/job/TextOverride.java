package org.jvmreuse.hadoop.task.job;

import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.WritableComparator;

/** A job's comparator registered for one of Hadoop's own key types. */
public class TextOverride extends WritableComparator {
    public TextOverride() {
        super(Text.class);
    }
}
