package org.jvmreuse.workloads.timing;

import java.io.IOException;
import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.json.JSONArray;
import org.json.JSONObject;

/**
 * The per-job times of finished jobs, from the daemons' REST APIs: the JobHistoryServer
 * ({@code mapreduce.jobhistory.webapp.address}: {@code /ws/v1/history/mapreduce/jobs/ID} for the
 * job's start and finish times and whether it ran uber, {@code .../jobattempts} for the AM attempts:
 * start time = when MRAppMaster was constructed, container, node) and the ResourceManager
 * ({@code yarn.resourcemanager.webapp.address}: {@code /ws/v1/cluster/apps/ID}, whose
 * {@code startedTime} is the RM's submission time; Hadoop 2.2's history server does not report a
 * job's submit time). Right after a job ends the history server may not have it yet: each job is
 * asked for again until a deadline.
 */
public final class JobHistory {
    private static final long RETRY_MS = 500;

    private final String historyServer;
    private final String resourceManager;

    private JobHistory(String historyServer, String resourceManager) {
        this.historyServer = historyServer;
        this.resourceManager = resourceManager;
    }

    /** The daemons the configuration names (JobConf and YarnConfiguration read mapred-site and yarn-site). */
    public static JobHistory of(Configuration conf) {
        Configuration yarn = new YarnConfiguration(new JobConf(conf));
        return new JobHistory(yarn.get("mapreduce.jobhistory.webapp.address", "0.0.0.0:19888"),
                yarn.get(YarnConfiguration.RM_WEBAPP_ADDRESS, YarnConfiguration.DEFAULT_RM_WEBAPP_ADDRESS));
    }

    /** One row per job of {@code iterations}, in their order; waits up to {@code waitMs} in all. */
    public List<JobTiming> fetch(List<IterationTiming> iterations, long waitMs) throws IOException, InterruptedException {
        long deadline = System.currentTimeMillis() + waitMs;
        List<JobTiming> jobs = new ArrayList<>();
        for (IterationTiming iteration : iterations) {
            jobs.add(fetch(iteration, deadline));
        }
        return jobs;
    }

    private JobTiming fetch(IterationTiming it, long deadline) throws IOException, InterruptedException {
        String history = "http://" + historyServer + "/ws/v1/history/mapreduce/jobs/" + it.jobId();
        JSONObject job = finishedJob(new URL(history), deadline);
        // One attempt is an object, several an array (Hadoop's JAXB-made JSON).
        Object attempts = JsonGet.object(JsonGet.fetch(new URL(history + "/jobattempts")), "jobAttempts").opt("jobAttempt");
        List<JSONObject> all = new ArrayList<>();
        if (attempts instanceof JSONArray array) {
            for (int i = 0; i < array.length(); i++) {
                all.add(array.getJSONObject(i));
            }
        } else if (attempts instanceof JSONObject one) {
            all.add(one);
        }
        JSONObject last = null;
        for (JSONObject attempt : all) {
            if (last == null || attempt.optInt("id") > last.optInt("id")) {
                last = attempt;
            }
        }
        if (last == null || last.optLong("startTime") <= 0) {
            throw new IOException(it.jobId() + ": no AM attempt in the job history (" + attempts + ")");
        }
        String app = "application_" + it.jobId().substring("job_".length());
        long rmSubmit = JsonGet.object(JsonGet.fetch(new URL("http://" + resourceManager + "/ws/v1/cluster/apps/" + app)), "app")
                .optLong("startedTime");
        if (rmSubmit <= 0) {
            throw new IOException(app + ": the ResourceManager reports no start time");
        }
        return new JobTiming(it.label(), it.iteration(), it.jobId(), it.submitMs(), rmSubmit,
                last.optLong("startTime"), last.optString("containerId", null),
                last.optString("nodeId", null), all.size(),
                job.optBoolean("uberized"), job.optLong("startTime"),
                job.optLong("finishTime"), it.finishMs());
    }

    /** The job's history once the history server has it (it answers 404 until then). */
    private static JSONObject finishedJob(URL url, long deadline) throws IOException, InterruptedException {
        while (true) {
            String why;
            try {
                JSONObject job = JsonGet.object(JsonGet.fetch(url), "job");
                if (job.optLong("startTime") > 0 && job.optLong("finishTime") > 0) {
                    return job;
                }
                why = "not finished: " + job;
            } catch (IOException e) {
                why = e.toString();
            }
            if (System.currentTimeMillis() >= deadline) {
                throw new IOException(url + ": no finished job in time (" + why + ")");
            }
            Thread.sleep(RETRY_MS);
        }
    }
}
