package org.jvmreuse.hadoop.task.job;

import java.lang.management.ManagementFactory;
import java.util.Set;
import java.util.TreeSet;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.metrics2.source.JvmMetrics;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * Starts metrics as a task does, as service {@code args[0]} of process {@code args[1]}, and prints
 * Hadoop's MBeans before and after and the process name JvmMetrics reports; shuts the metrics
 * system down if {@code args[2]} is "shutdown" (a task that exits does not).
 */
public final class MetricsStart {
    private static final MBeanServer SERVER = ManagementFactory.getPlatformMBeanServer();

    public static void main(String[] args) throws Exception {
        System.out.println("beansBefore=" + hadoopMBeans());
        UserGroupInformation.getLoginUser();
        DefaultMetricsSystem.initialize(args[0]);
        JvmMetrics.initSingleton(args[1], "session");
        System.out.println("beans=" + hadoopMBeans());
        System.out.println("processName=" + SERVER.getAttribute(
                new ObjectName("Hadoop:service=" + args[0] + ",name=JvmMetrics"), "tag.ProcessName"));
        if (args.length > 2 && args[2].equals("shutdown")) {
            DefaultMetricsSystem.shutdown();
        }
    }

    private static Set<String> hadoopMBeans() throws Exception {
        Set<String> names = new TreeSet<>();
        for (ObjectName n : SERVER.queryNames(new ObjectName("Hadoop:*"), null)) {
            names.add(n.getCanonicalName());
        }
        return names;
    }
}
