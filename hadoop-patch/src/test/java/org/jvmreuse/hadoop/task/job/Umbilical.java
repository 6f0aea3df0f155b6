package org.jvmreuse.hadoop.task.job;

import java.io.IOException;
import org.apache.hadoop.ipc.VersionedProtocol;

/** Stands in for the task umbilical (a WritableRpcEngine protocol, as Hadoop 2.2's is). */
public interface Umbilical extends VersionedProtocol {
    long versionID = 1L;

    void done(String attempt) throws IOException;
}
