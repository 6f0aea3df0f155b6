package org.jvmreuse.hadoop3.task.job;

import java.util.List;
import java.util.Map;
import javax.servlet.http.HttpServlet;
import com.google.inject.Guice;
import com.google.inject.Singleton;
import com.google.inject.servlet.ServletModule;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.jobhistory.JobHistoryEventHandler;
import org.apache.hadoop.mapreduce.v2.api.records.TaskType;
import org.apache.hadoop.mapreduce.v2.app.MRAppMaster;
import org.apache.hadoop.mapreduce.v2.app.job.impl.TaskAttemptImpl;
import org.apache.hadoop.mapreduce.v2.util.MRWebAppUtil;
import org.apache.hadoop.net.DNSToSwitchMapping;
import org.apache.hadoop.service.AbstractService;
import org.apache.hadoop.service.Service;
import org.apache.hadoop.service.ServiceStateChangeListener;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.Token;
import org.apache.hadoop.yarn.client.api.NMTokenCache;
import org.apache.hadoop.yarn.util.RackResolver;

/**
 * What an MRAppMaster run on Hadoop 3.x leaves in statics, with objects of its own classes,
 * ending without stopping its services: 2.2's (hadoop-patch's AppMasterLike: its web app's Guice
 * pipeline, rack mapping, a global service listener, an NM token, a history writer, the HTTP
 * policies, counter groups in TaskAttemptImpl's empty counters) and 3.x's own: MRAppMaster's
 * mainStarted, and TaskAttemptImpl's cache of each task type's container size. Prints the rack it resolved.
 */
public final class AppMaster3Like {
    @SuppressWarnings("unchecked")
    public static void main(String[] args) throws Exception {
        Configuration conf = new Configuration();
        conf.set("yarn.http.policy", "HTTPS_ONLY");
        MRWebAppUtil.initialize(conf);
        NMTokenCache.setNMToken("node:1", Token.newInstance(new byte[] {1}, "NMToken", new byte[] {2}, "node:1"));
        conf.setClass("net.topology.node.switch.mapping.impl", JobRacks.class, DNSToSwitchMapping.class);
        RackResolver.init(conf);
        AbstractService.registerGlobalListener(new JobListener());
        Guice.createInjector(new ServletModule() {
            @Override
            protected void configureServlets() {
                serve("/job").with(JobServlet.class);
            }
        });
        ((Map<Object, Object>) Statics.get(JobHistoryEventHandler.class, "fileMap")).put("job_1_0001", new JobListener());
        ((Counters) Statics.get(TaskAttemptImpl.class, "EMPTY_COUNTERS")).findCounter("job", "viewed").increment(1);
        ((Map<TaskType, Resource>) Statics.get(TaskAttemptImpl.class, "RESOURCE_REQUEST_CACHE"))
                .put(TaskType.MAP, Resource.newInstance(1024, 1));
        Statics.set(MRAppMaster.class, "mainStarted", true);
        System.out.println("rack=" + RackResolver.resolve("host").getNetworkLocation());
    }

    /** The job's topology: every host on one rack. */
    public static class JobRacks implements DNSToSwitchMapping {
        @Override
        public List<String> resolve(List<String> names) {
            return names.stream().map(n -> "/job-rack").toList();
        }

        @Override
        public void reloadCachedMappings() {
        }

        @Override
        public void reloadCachedMappings(List<String> names) {
        }
    }

    static class JobListener implements ServiceStateChangeListener {
        @Override
        public void stateChanged(Service service) {
        }
    }

    @Singleton
    static class JobServlet extends HttpServlet {
    }
}
