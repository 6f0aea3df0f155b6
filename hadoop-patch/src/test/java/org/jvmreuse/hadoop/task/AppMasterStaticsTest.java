package org.jvmreuse.hadoop.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jvmreuse.hadoop.task.job.AppMasterLike;
import org.jvmreuse.hadoop.task.job.AppMasterStaticsSeen;
import org.jvmreuse.hadoop.task.job.TaskLaunchContext;
import org.jvmreuse.pool.slot.RunOutcome;

/** The statics an MRAppMaster run sets, set as an AM sets them, and what the next run sees. */
class AppMasterStaticsTest {
    private static final long GC_WAIT_MILLIS = 20_000;

    @TempDir
    Path dir;

    /**
     * cglib (inside Guice) keeps an exception its ClassNameReader makes as it initialises, with
     * the stack of the run that first used it: in a slot an AM's, Hadoop's classes only; here the
     * job class that stands for the AM, whose loader it would keep. It is initialised outside runs.
     */
    @BeforeAll
    static void initialiseCglibOutsideRuns() throws Exception {
        Class.forName("com.google.inject.internal.cglib.core.$ClassNameReader", true,
                HadoopRuns.sharedClass("com.google.inject.Guice").getClassLoader());
    }

    /** The bug that made the second AM in a slot launch its tasks with the first job's job.jar. */
    @Test
    void eachJobsTasksLaunchWithItsOwnJobJarAndClassPath() throws Exception {
        RunOutcome first = HadoopRuns.run(HadoopRuns.ofAppMaster(TaskLaunchContext.class, dir.toString(), "1"));
        RunOutcome second = HadoopRuns.run(HadoopRuns.ofAppMaster(TaskLaunchContext.class, dir.toString(), "2"));
        assertTrue(first.printed("jobJar").contains("/job_1_0001/"), first.printed("jobJar"));
        assertTrue(second.printed("jobJar").contains("/job_1_0002/"), second.printed("jobJar"));
        assertTrue(second.printed("classPath").contains("job-2-classpath"), second.printed("classPath"));
    }

    @Test
    void anAppMasterThatDidNotStopLeavesNothingOfItsOwn() throws Exception {
        RunOutcome appMaster = HadoopRuns.run(HadoopRuns.ofAppMaster(AppMasterLike.class));
        assertEquals("/job-rack", appMaster.printed("rack"));
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put("yarnHttpPolicy", "null");
        expected.put("jobHistoryServerHttpPolicy", "null");
        expected.put("httpPolicy", "HTTP_ONLY");
        expected.put("nmTokens", "0");
        expected.put("rack", "/default-rack");
        expected.put("globalServiceListeners", "[]");
        expected.put("webAppPipeline", "DefaultFilterPipeline");
        expected.put("historyWriters", "{}");
        expected.put("emptyCounters", "0");
        RunOutcome next = HadoopRuns.run(HadoopRuns.ofAppMaster(AppMasterStaticsSeen.class));
        Map<String, String> seen = new LinkedHashMap<>();
        expected.keySet().forEach(key -> seen.put(key, next.printed(key)));
        assertEquals(expected, seen);
        assertTrue(appMaster.loaderCollectedWithin(GC_WAIT_MILLIS), "the AM run's class loader is still reachable");
    }
}
