package org.jvmreuse.hadoop3.names;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.jvmreuse.hadoop.names.HadoopNames;
import org.jvmreuse.hadoop.names.HadoopNamesCheck;
import org.jvmreuse.hadoop3.counters.TaskLaunchCountingEngine;
import org.junit.jupiter.api.Test;

/**
 * Every class, field and method that hadoop-patch's resets and hooks reach by name exists in the
 * Hadoop 3.x this module is built against (hadoop3.version): the names table is 3.x's here (its
 * VersionInfo is this Hadoop's), and HadoopNamesCheck finds nothing missing or changed. Hadoop
 * 2.2.0's table is checked by hadoop-patch's HadoopNamesTest.
 */
class Hadoop3NamesTest {
    @Test
    void theTableIsHadoop3sAndHadoop3HasEveryName() {
        assertTrue(HadoopNames.HADOOP_3, "the names table beside Hadoop " + org.apache.hadoop.util.VersionInfo.getVersion());
        Map<String, ?> problems = new HadoopNamesCheck(Hadoop3NamesTest.class.getClassLoader()).problems(HadoopNames.class);
        assertEquals(Map.of(), problems, "names missing or changed in Hadoop " + org.apache.hadoop.util.VersionInfo.getVersion());
    }

    @Test
    void theLaunchCountersEngineOverridesEveryGetProxyItNames() {
        assertNull(new HadoopNamesCheck(Hadoop3NamesTest.class.getClassLoader())
                .notOverridden(TaskLaunchCountingEngine.class, HadoopNames.TaskLaunchCountingEngine.GET_PROXY));
    }
}
