package org.jvmreuse.hadoop.task.job;

import java.lang.reflect.Field;
import com.google.inject.servlet.GuiceFilter;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.http.HttpConfig;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.jobhistory.JobHistoryEventHandler;
import org.apache.hadoop.mapreduce.v2.app.job.impl.TaskAttemptImpl;
import org.apache.hadoop.mapreduce.v2.util.MRWebAppUtil;
import org.apache.hadoop.service.AbstractService;
import org.apache.hadoop.yarn.client.api.NMTokenCache;
import org.apache.hadoop.yarn.util.RackResolver;

/** Prints the statics an MRAppMaster sets (AppMasterLike), as this run finds them. */
public final class AppMasterStaticsSeen {
    public static void main(String[] args) throws Exception {
        System.out.println("yarnHttpPolicy=" + MRWebAppUtil.getYARNHttpPolicy());
        System.out.println("jobHistoryServerHttpPolicy=" + MRWebAppUtil.getJHSHttpPolicy());
        System.out.println("httpPolicy=" + Statics.get(HttpConfig.class, "policy"));
        System.out.println("nmTokens=" + NMTokenCache.numberOfNMTokensInCache());
        System.out.println("rack=" + RackResolver.resolve(new Configuration(), "host").getNetworkLocation());
        Object listeners = Statics.get(AbstractService.class, "globalListeners");
        System.out.println("globalServiceListeners=" + field(listeners, "listeners"));
        System.out.println("webAppPipeline=" + Statics.get(GuiceFilter.class, "pipeline").getClass().getSimpleName());
        System.out.println("historyWriters=" + Statics.get(JobHistoryEventHandler.class, "fileMap"));
        System.out.println("emptyCounters=" + ((Counters) Statics.get(TaskAttemptImpl.class, "EMPTY_COUNTERS")).countCounters());
    }

    private static Object field(Object target, String name) throws ReflectiveOperationException {
        Field f = target.getClass().getDeclaredField(name);
        f.setAccessible(true);
        return f.get(target);
    }
}
