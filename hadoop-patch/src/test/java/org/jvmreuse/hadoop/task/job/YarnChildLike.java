package org.jvmreuse.hadoop.task.job;

import java.net.InetSocketAddress;
import java.security.PrivilegedExceptionAction;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.TaskUmbilicalProtocol;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.metrics2.source.JvmMetrics;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.yarn.util.ConverterUtils;

/**
 * What YarnChild.main does before it asks the application master for its task, ending as a
 * task that calls System.exit does: the umbilical proxy is not stopped, metrics stay started.
 * Prints its container and whether it got the umbilical.
 */
public final class YarnChildLike {
    @SuppressWarnings("deprecation") // JobConf.getSessionId, as YarnChild calls it
    public static void main(String[] args) throws Exception {
        JobConf defaultConf = new JobConf();
        UserGroupInformation.setConfiguration(defaultConf);
        DefaultMetricsSystem.initialize("MapTask");
        UserGroupInformation taskOwner = UserGroupInformation.createRemoteUser("job_1_0001");
        InetSocketAddress address = NetUtils.createSocketAddrForHost("localhost", 1);
        TaskUmbilicalProtocol umbilical = taskOwner.doAs((PrivilegedExceptionAction<TaskUmbilicalProtocol>) () ->
                RPC.getProxy(TaskUmbilicalProtocol.class, TaskUmbilicalProtocol.versionID, address, defaultConf));
        String container = ConverterUtils.toContainerId("container_1_0001_01_000002").toString();
        JvmMetrics.initSingleton("jvm_1_0001_m_000002", defaultConf.getSessionId());
        UserGroupInformation child = UserGroupInformation.createRemoteUser(System.getProperty("user.name"));
        child.addCredentials(UserGroupInformation.getCurrentUser().getCredentials());
        child.doAs((PrivilegedExceptionAction<Object>) () -> {
            FileSystem.get(defaultConf).setWorkingDirectory(defaultConf.getWorkingDirectory());
            return null;
        });
        System.out.println("container=" + container);
        System.out.println("umbilical=" + (umbilical != null));
        System.exit(0);
    }
}
