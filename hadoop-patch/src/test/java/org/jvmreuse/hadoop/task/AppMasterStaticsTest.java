package org.jvmreuse.hadoop.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.ref.WeakReference;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import com.google.inject.Guice;
import com.google.inject.servlet.GuiceFilter;
import com.google.inject.servlet.ServletModule;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.http.HttpConfig;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.JobID;
import org.apache.hadoop.mapred.MapTask;
import org.apache.hadoop.mapred.Task;
import org.apache.hadoop.mapred.TaskAttemptID;
import org.apache.hadoop.mapred.TaskID;
import org.apache.hadoop.mapred.WrappedJvmID;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.jobhistory.JobHistoryEventHandler;
import org.apache.hadoop.mapreduce.split.JobSplit.TaskSplitIndex;
import org.apache.hadoop.mapreduce.v2.app.TaskAttemptListener;
import org.apache.hadoop.mapreduce.v2.app.job.impl.TaskAttemptImpl;
import org.apache.hadoop.mapreduce.v2.util.MRWebAppUtil;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.service.AbstractService;
import org.apache.hadoop.yarn.api.records.ContainerLaunchContext;
import org.apache.hadoop.yarn.client.api.NMTokenCache;
import org.apache.hadoop.yarn.util.RackResolver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The statics an MRAppMaster run sets, set as an AM sets them, and what the next run sees. */
class AppMasterStaticsTest {
    private static final long GC_WAIT_MILLIS = 20_000;

    static {
        // Outside runs, as first uses of Guice's servlet extension: its reference queue starts a
        // thread that ignores interrupts (a slot stops it with the run that started it, SlotRun
        // cannot), and cglib's ClassNameReader keeps an exception made by its initialiser, with
        // the stack of the run that initialised it (in a slot the AM's: Hadoop's classes only;
        // here the job class that stands for it); its pipeline goes back as after a run
        Guice.createInjector(new ServletModule());
        Fields.callStatic(GuiceFilter.class, "reset");
    }

    @TempDir
    Path dir;

    /** The bug that made the second AM in a slot launch its tasks with the first job's job.jar. */
    @Test
    void eachJobsTasksLaunchWithItsOwnJobJarAndClassPath() throws Exception {
        ContainerLaunchContext first = run(() -> taskLaunchContext(1));
        ContainerLaunchContext second = run(() -> taskLaunchContext(2));
        assertTrue(jobJar(first).contains("/job_1_0001/"), jobJar(first));
        assertTrue(jobJar(second).contains("/job_1_0002/"), jobJar(second));
        assertTrue(second.getEnvironment().get("CLASSPATH").contains("job-2-classpath"), second.getEnvironment().toString());
    }

    @Test
    void anAppMasterThatDidNotStopLeavesNothingOfItsOwn() throws Exception {
        RunLoader loader = new RunLoader();
        assertEquals("/job-rack", new SlotRun(loader).run(true, loader.newJob("AppMasterLike")));
        WeakReference<ClassLoader> ref = new WeakReference<>(loader);
        loader = null;
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("YARN http policy", null);
        expected.put("JobHistoryServer http policy", null);
        expected.put("HTTPS", false);
        expected.put("NM tokens", 0);
        expected.put("rack", "/default-rack");
        expected.put("global service listeners", List.of());
        expected.put("web app pipeline", "DefaultFilterPipeline");
        expected.put("history writers", Map.of());
        expected.put("counters of attempts without a report", 0);
        assertEquals(expected, run(AppMasterStaticsTest::whatANewJvmShows));
        assertTrue(Collected.within(ref, GC_WAIT_MILLIS), "the AM run's class loader is still reachable");
    }

    private static Map<String, Object> whatANewJvmShows() throws Exception {
        Map<String, Object> seen = new LinkedHashMap<>();
        seen.put("YARN http policy", MRWebAppUtil.getYARNHttpPolicy());
        seen.put("JobHistoryServer http policy", MRWebAppUtil.getJHSHttpPolicy());
        seen.put("HTTPS", HttpConfig.isSecure());
        seen.put("NM tokens", NMTokenCache.numberOfNMTokensInCache());
        seen.put("rack", RackResolver.resolve(new Configuration(), "host").getNetworkLocation());
        seen.put("global service listeners", Fields.get(Fields.getStatic(AbstractService.class, "globalListeners"), "listeners"));
        seen.put("web app pipeline", Fields.getStatic(GuiceFilter.class, "pipeline").getClass().getSimpleName());
        seen.put("history writers", Fields.getStatic(JobHistoryEventHandler.class, "fileMap"));
        seen.put("counters of attempts without a report",
                ((Counters) Fields.getStatic(TaskAttemptImpl.class, "EMPTY_COUNTERS")).countCounters());
        return seen;
    }

    /** What TaskAttemptImpl makes for a map task of job {@code job} of cluster 1. */
    private ContainerLaunchContext taskLaunchContext(int job) throws Exception {
        JobID jobId = new JobID("1", job);
        String user = UserGroupInformation.getCurrentUser().getShortUserName();
        Path submitDir = Files.createDirectories(dir.resolve(user + "/.staging/" + jobId));
        JobConf conf = new JobConf();
        conf.set(MRJobConfig.MR_AM_STAGING_DIR, dir.toString());
        conf.set(MRJobConfig.JAR, Files.createFile(submitDir.resolve("job.jar")).toString());
        Files.createFile(submitDir.resolve("job.xml"));
        conf.set(MRJobConfig.MAPREDUCE_APPLICATION_CLASSPATH, "job-" + job + "-classpath");
        MapTask task = new MapTask("job.xml", new TaskAttemptID(new TaskID(jobId, TaskType.MAP, 0), 0), 0,
                new TaskSplitIndex(), 1);
        task.setConf(conf);
        Token<?> jobToken = new Token<>(new byte[] {1}, new byte[] {2}, new Text("mapreduce.job"), new Text(jobId.toString()));
        TaskAttemptListener listener = (TaskAttemptListener) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {TaskAttemptListener.class}, (proxy, method, args) -> new InetSocketAddress("localhost", 1));
        Method create = TaskAttemptImpl.class.getDeclaredMethod("createContainerLaunchContext", Map.class,
                Configuration.class, Token.class, Task.class, org.apache.hadoop.mapred.JobID.class, WrappedJvmID.class,
                TaskAttemptListener.class, Credentials.class);
        create.setAccessible(true);
        return (ContainerLaunchContext) create.invoke(null, Map.of(), conf, jobToken, task, jobId,
                new WrappedJvmID(jobId, true, 1), listener, new Credentials());
    }

    private static String jobJar(ContainerLaunchContext launch) {
        return launch.getLocalResources().get(MRJobConfig.JOB_JAR).getResource().getFile();
    }

    private static <T> T run(Callable<T> program) throws Exception {
        return new SlotRun(new RunLoader()).run(true, program);
    }
}
