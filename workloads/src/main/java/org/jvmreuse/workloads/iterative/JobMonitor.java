package org.jvmreuse.workloads.iterative;

import java.io.IOException;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobStatus;

/**
 * Waits for a submitted job, feeding its progress to {@link Progress}. Polls as often as the
 * cluster's {@code mapreduce.client.progressmonitor.pollinterval} says (Job.waitForCompletion
 * without output polls every 5 s, which would add up to 5 s to every iteration), so that every
 * mode's client sees its job end as soon as Hadoop's own client would.
 */
final class JobMonitor {
    private JobMonitor() {
    }

    static void await(Job job, Progress progress, int iteration) throws IOException, InterruptedException {
        long pollMs = Job.getProgressPollInterval(job.getConfiguration());
        for (JobStatus status = job.getStatus(); !status.isJobComplete(); status = job.getStatus()) {
            progress.running(iteration, status.getMapProgress(), status.getReduceProgress());
            Thread.sleep(pollMs);
        }
    }
}
