package org.jvmreuse.workloads.timing;

import java.io.IOException;
import java.net.URL;
import java.util.Set;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.util.Tool;
import org.json.JSONObject;
import org.jvmreuse.workloads.cli.Options;
import org.jvmreuse.workloads.cli.UsageException;

/**
 * job-time: prints the run time in ms (finishTime - startTime) of a finished MapReduce job as the
 * JobHistoryServer records it, from its REST API at {@code mapreduce.jobhistory.webapp.address}
 * (Hadoop 2.2's job client drops both times when it converts the history server's job report).
 * Right after a job ends the history server may not have it yet, so it asks again for up to
 * {@code --wait} seconds (default 30). Exit status 1 when no finished job is found.
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
        // JobConf reads mapred-site.xml, where the history server's address is.
        String address = new JobConf(getConf()).get("mapreduce.jobhistory.webapp.address", "0.0.0.0:19888");
        URL url = new URL("http://" + address + "/ws/v1/history/mapreduce/jobs/" + id);
        Object last;
        do {
            try {
                JSONObject job = JsonGet.object(JsonGet.fetch(url), "job");
                long start = job.optLong("startTime");
                long finish = job.optLong("finishTime");
                if (start > 0 && finish >= start) {
                    System.out.println(finish - start);
                    return 0;
                }
                last = "not finished: " + job;
            } catch (IOException e) {
                last = e;
            }
            Thread.sleep(1000);
        } while (System.currentTimeMillis() < until);
        System.err.println("job-time: no finished job " + id + " at " + url + ": " + last);
        return 1;
    }
}
