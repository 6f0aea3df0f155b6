package org.jvmreuse.hadoop.task.job;

/** A job's own RPC protocol interface. */
public interface JobProtocol {
    long versionID = 1L;
}
