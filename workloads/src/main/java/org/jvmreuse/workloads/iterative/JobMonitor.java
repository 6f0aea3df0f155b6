package org.jvmreuse.workloads.iterative;

import java.io.IOException;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobStatus;

/**
 * Waits for a submitted job, feeding its progress to {@link Progress}. Polls every 100 ms
 * (Job.waitForCompletion polls every 5 s by default, which would add up to 5 s to every iteration).
 */
final class JobMonitor {
    private static final long POLL_MS = 100;

    private JobMonitor() {
    }

    static void await(Job job, Progress progress, int iteration) throws IOException, InterruptedException {
        for (JobStatus status = job.getStatus(); !status.isJobComplete(); status = job.getStatus()) {
            progress.running(iteration, status.getMapProgress(), status.getReduceProgress());
            Thread.sleep(POLL_MS);
        }
    }
}
