package org.jvmreuse.shuffle.reduce;

import java.io.IOException;
import org.apache.hadoop.mapreduce.task.reduce.MapHost;

/** Copies a host's map outputs another way than HTTP, if it can reach that host. */
public interface HostCopier {
    /** False if this copier cannot reach {@code host} (its maps are then fetched over HTTP). */
    boolean copy(MapHost host) throws IOException, InterruptedException;
}
