package org.jvmreuse.hadoop.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.Set;
import java.util.TreeSet;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.metrics2.source.JvmMetrics;
import org.junit.jupiter.api.Test;

class MetricsResetTest {
    private static final MBeanServer SERVER = ManagementFactory.getPlatformMBeanServer();

    @Test
    void nextTaskInitialisesMetricsAsInANewJvm() throws Exception {
        // the first task exits without DefaultMetricsSystem.shutdown() (System.exit in Task)
        new SlotRun(new RunLoader()).run(true, () -> startMetrics("MapTask", "jvm_1"));
        assertEquals(Set.of(), hadoopMBeans());
        Object processName = new SlotRun(new RunLoader()).run(true, () -> {
            startMetrics("ReduceTask", "jvm_2");
            Set<String> beans = hadoopMBeans();
            assertTrue(beans.contains("Hadoop:name=JvmMetrics,service=ReduceTask"), beans.toString());
            assertTrue(beans.contains("Hadoop:name=UgiMetrics,service=ReduceTask"), beans.toString());
            assertTrue(beans.stream().noneMatch(b -> b.contains("MapTask")), beans.toString());
            Object name = SERVER.getAttribute(new ObjectName("Hadoop:service=ReduceTask,name=JvmMetrics"), "tag.ProcessName");
            DefaultMetricsSystem.shutdown();
            return name;
        });
        assertEquals("jvm_2", processName);
        assertEquals(Set.of(), hadoopMBeans());
    }

    private static Void startMetrics(String prefix, String processName) throws Exception {
        org.apache.hadoop.security.UserGroupInformation.getLoginUser();
        DefaultMetricsSystem.initialize(prefix);
        JvmMetrics.initSingleton(processName, "session");
        return null;
    }

    private static Set<String> hadoopMBeans() throws Exception {
        Set<String> names = new TreeSet<>();
        for (ObjectName n : SERVER.queryNames(new ObjectName("Hadoop:*"), null)) {
            names.add(n.getCanonicalName());
        }
        return names;
    }
}
