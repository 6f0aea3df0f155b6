package org.jvmreuse.hadoop3.task.job;

import com.google.inject.servlet.GuiceFilter;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.jobhistory.JobHistoryEventHandler;
import org.apache.hadoop.mapreduce.v2.app.MRAppMaster;
import org.apache.hadoop.mapreduce.v2.app.job.impl.TaskAttemptImpl;
import org.apache.hadoop.mapreduce.v2.util.MRWebAppUtil;
import org.apache.hadoop.service.AbstractService;
import org.apache.hadoop.yarn.client.api.NMTokenCache;
import org.apache.hadoop.yarn.util.RackResolver;

/** Prints the statics an MRAppMaster sets on Hadoop 3.x (AppMaster3Like), as this run finds them. */
public final class AppMaster3StaticsSeen {
    public static void main(String[] args) throws Exception {
        System.out.println("yarnHttpPolicy=" + MRWebAppUtil.getYARNHttpPolicy());
        System.out.println("jobHistoryServerHttpPolicy=" + MRWebAppUtil.getJHSHttpPolicy());
        System.out.println("nmTokens=" + NMTokenCache.getSingleton().numberOfTokensInCache());
        System.out.println("rack=" + RackResolver.resolve(new Configuration(), "host").getNetworkLocation());
        System.out.println("globalServiceListeners="
                + Statics.field(Statics.get(AbstractService.class, "globalListeners"), "listeners"));
        System.out.println("webAppPipeline=" + Statics.get(GuiceFilter.class, "pipeline").getClass().getSimpleName());
        System.out.println("historyWriters=" + Statics.get(JobHistoryEventHandler.class, "fileMap"));
        System.out.println("emptyCounters=" + ((Counters) Statics.get(TaskAttemptImpl.class, "EMPTY_COUNTERS")).countCounters());
        System.out.println("containerSizes=" + Statics.get(TaskAttemptImpl.class, "RESOURCE_REQUEST_CACHE"));
        System.out.println("mainStarted=" + Statics.get(MRAppMaster.class, "mainStarted"));
    }
}
