package org.jvmreuse.workloads.timing;

import java.io.IOException;
import java.util.Set;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.mapreduce.Cluster;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.util.Tool;
import org.jvmreuse.workloads.Options;
import org.jvmreuse.workloads.UsageException;

/**
 * job-time: prints the run time in ms (finish - start, as the JobHistoryServer records it) of a
 * finished MapReduce job, asked through the job client like every other timing of this package.
 * Right after a job ends its status moves from the MRAppMaster to the history server, so it asks
 * again for up to {@code --wait} seconds (default 30). Exit status 1 when no finished job is found.
 */
public final class JobTime extends Configured implements Tool {
    public static final String USAGE = "job-time --job JOB_ID [--wait SECONDS]";

    @Override
    public int run(String[] args) throws Exception {
        Options options = Options.parse(args, Set.of("job", "wait"));
        JobID id;
        try {
            id = JobID.forName(options.get("job"));
        } catch (IllegalArgumentException e) {
            throw new UsageException("--job: not a job id: " + options.get("job"));
        }
        long until = System.currentTimeMillis() + 1000L * options.getInt("wait", 30);
        Cluster cluster = new Cluster(getConf());
        try {
            Object last = "not found";
            do {
                try {
                    Job job = cluster.getJob(id);
                    if (job != null && job.isComplete() && job.getFinishTime() > 0) {
                        System.out.println(job.getFinishTime() - job.getStartTime());
                        return 0;
                    }
                    last = job == null ? "not found" : "not finished";
                } catch (IOException e) {
                    last = e;
                }
                Thread.sleep(1000);
            } while (System.currentTimeMillis() < until);
            System.err.println("job-time: no finished job " + id + ": " + last);
            return 1;
        } finally {
            cluster.close();
        }
    }
}
