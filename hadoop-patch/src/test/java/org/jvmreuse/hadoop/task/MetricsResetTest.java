package org.jvmreuse.hadoop.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.Set;
import java.util.TreeSet;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;
import org.jvmreuse.hadoop.task.job.MetricsStart;
import org.jvmreuse.pool.slot.RunOutcome;

class MetricsResetTest {
    @Test
    void nextTaskInitialisesMetricsAsInANewJvm() throws Exception {
        // the first task exits without DefaultMetricsSystem.shutdown() (System.exit in Task)
        HadoopRuns.run(MetricsStart.class, "MapTask", "jvm_1");
        assertEquals(Set.of(), hadoopMBeans());
        RunOutcome second = HadoopRuns.run(MetricsStart.class, "ReduceTask", "jvm_2", "shutdown");
        assertEquals("[]", second.printed("beansBefore"));
        String beans = second.printed("beans");
        assertTrue(beans.contains("Hadoop:name=JvmMetrics,service=ReduceTask"), beans);
        assertTrue(beans.contains("Hadoop:name=UgiMetrics,service=ReduceTask"), beans);
        assertFalse(beans.contains("MapTask"), beans);
        assertEquals("jvm_2", second.printed("processName"));
        assertEquals(Set.of(), hadoopMBeans());
    }

    private static Set<String> hadoopMBeans() throws Exception {
        Set<String> names = new TreeSet<>();
        for (ObjectName n : ManagementFactory.getPlatformMBeanServer().queryNames(new ObjectName("Hadoop:*"), null)) {
            names.add(n.getCanonicalName());
        }
        return names;
    }
}
