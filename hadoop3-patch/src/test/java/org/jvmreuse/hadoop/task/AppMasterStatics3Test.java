package org.jvmreuse.hadoop.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.util.VersionInfo;
import org.apache.hadoop.util.VersionUtil;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.jvmreuse.hadoop3.task.job.AppMaster3Like;
import org.jvmreuse.hadoop3.task.job.AppMaster3StaticsSeen;
import org.jvmreuse.pool.slot.RunOutcome;

/**
 * On Hadoop 3.x (this module's hadoop3.version), in a slot in this JVM as in hadoop-patch's
 * tests (HadoopRuns, from its test jar, with this Hadoop as the shared class path): the statics
 * an MRAppMaster run sets, set as an AM sets them, and what the next run sees: a new JVM's
 * values, after the whole per-run reset (HadoopTaskReset, AppMasterStatics with 3.x's names).
 */
class AppMasterStatics3Test {
    private static final long GC_WAIT_MILLIS = 20_000;

    /**
     * As on 2.2 (hadoop-patch's AppMasterStaticsTest): cglib, inside 3.4's Guice 4 (3.5's Guice 5
     * has none), keeps an exception its ClassNameReader makes as it initialises, with the stack of
     * the run that first used it: in a slot an AM's, Hadoop's classes only; here the job class
     * that stands for the AM, whose loader it would keep. It is initialised outside runs.
     */
    @BeforeAll
    static void initialiseCglibOutsideRuns() throws Exception {
        if (VersionUtil.compareVersions(VersionInfo.getVersion(), "3.5") < 0) {
            Class.forName("com.google.inject.internal.cglib.core.$ClassNameReader", true,
                    HadoopRuns.sharedClass("com.google.inject.Guice").getClassLoader());
        }
    }

    @Test
    void anAppMasterThatDidNotStopLeavesNothingOfItsOwn() throws Exception {
        RunOutcome appMaster = HadoopRuns.run(HadoopRuns.ofAppMaster(AppMaster3Like.class));
        assertEquals("/job-rack", appMaster.printed("rack"));
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put("yarnHttpPolicy", "null");
        expected.put("jobHistoryServerHttpPolicy", "null");
        expected.put("nmTokens", "0");
        expected.put("rack", "/default-rack");
        expected.put("globalServiceListeners", "[]");
        expected.put("webAppPipeline", "DefaultFilterPipeline");
        expected.put("historyWriters", "{}");
        expected.put("emptyCounters", "0");
        expected.put("containerSizes", "{}");
        expected.put("mainStarted", "false");
        RunOutcome next = HadoopRuns.run(HadoopRuns.ofAppMaster(AppMaster3StaticsSeen.class));
        Map<String, String> seen = new LinkedHashMap<>();
        expected.keySet().forEach(key -> seen.put(key, next.printed(key)));
        assertEquals(expected, seen);
        assertTrue(appMaster.loaderCollectedWithin(GC_WAIT_MILLIS), "the AM run's class loader is still reachable");
    }
}
