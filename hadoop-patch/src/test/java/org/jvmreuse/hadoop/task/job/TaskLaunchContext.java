package org.jvmreuse.hadoop.task.job;

import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.JobID;
import org.apache.hadoop.mapred.MapTask;
import org.apache.hadoop.mapred.Task;
import org.apache.hadoop.mapred.TaskAttemptID;
import org.apache.hadoop.mapred.TaskID;
import org.apache.hadoop.mapred.WrappedJvmID;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.split.JobSplit.TaskSplitIndex;
import org.apache.hadoop.mapreduce.v2.app.TaskAttemptListener;
import org.apache.hadoop.mapreduce.v2.app.job.impl.TaskAttemptImpl;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.yarn.api.records.ContainerLaunchContext;

/**
 * What an MRAppMaster's TaskAttemptImpl launches a map task of job {@code args[1]} of cluster 1
 * with, its staging directory under {@code args[0]}: prints the job jar and the CLASSPATH.
 */
public final class TaskLaunchContext {
    public static void main(String[] args) throws Exception {
        Path staging = Path.of(args[0]);
        JobID jobId = new JobID("1", Integer.parseInt(args[1]));
        String user = UserGroupInformation.getCurrentUser().getShortUserName();
        Path submitDir = Files.createDirectories(staging.resolve(user + "/.staging/" + jobId));
        JobConf conf = new JobConf();
        conf.set(MRJobConfig.MR_AM_STAGING_DIR, staging.toString());
        conf.set(MRJobConfig.JAR, Files.createFile(submitDir.resolve("job.jar")).toString());
        Files.createFile(submitDir.resolve("job.xml"));
        conf.set(MRJobConfig.MAPREDUCE_APPLICATION_CLASSPATH, "job-" + args[1] + "-classpath");
        MapTask task = new MapTask("job.xml", new TaskAttemptID(new TaskID(jobId, TaskType.MAP, 0), 0), 0,
                new TaskSplitIndex(), 1);
        task.setConf(conf);
        Token<?> jobToken = new Token<>(new byte[] {1}, new byte[] {2}, new Text("mapreduce.job"), new Text(jobId.toString()));
        TaskAttemptListener listener = (TaskAttemptListener) Proxy.newProxyInstance(TaskLaunchContext.class.getClassLoader(),
                new Class<?>[] {TaskAttemptListener.class}, (proxy, method, arguments) -> new InetSocketAddress("localhost", 1));
        Method create = TaskAttemptImpl.class.getDeclaredMethod("createContainerLaunchContext", Map.class,
                Configuration.class, Token.class, Task.class, JobID.class, WrappedJvmID.class,
                TaskAttemptListener.class, Credentials.class);
        create.setAccessible(true);
        ContainerLaunchContext launch = (ContainerLaunchContext) create.invoke(null, Map.of(), conf, jobToken, task, jobId,
                new WrappedJvmID(jobId, true, 1), listener, new Credentials());
        System.out.println("jobJar=" + launch.getLocalResources().get(MRJobConfig.JOB_JAR).getResource().getFile());
        System.out.println("classPath=" + launch.getEnvironment().get("CLASSPATH"));
    }
}
