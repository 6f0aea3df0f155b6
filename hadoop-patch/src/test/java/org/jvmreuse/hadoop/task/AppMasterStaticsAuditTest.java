package org.jvmreuse.hadoop.task;

import static java.util.Map.entry;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.jvmreuse.hadoop.audit.HarmlessReasons.CONSTANT_ARRAY;
import static org.jvmreuse.hadoop.audit.HarmlessReasons.IMMUTABLE_PERMISSION;
import static org.jvmreuse.hadoop.audit.HarmlessReasons.NODE_MANAGER_PERMISSION;
import static org.jvmreuse.hadoop.audit.HarmlessReasons.NOT_FINAL;
import static org.jvmreuse.hadoop.audit.HarmlessReasons.PRIORITY;
import static org.jvmreuse.hadoop.audit.HarmlessReasons.REQUEST_LOCAL;
import static org.jvmreuse.hadoop.audit.HarmlessReasons.STATE_MACHINE;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import com.google.common.base.CharMatcher;
import com.google.common.base.Joiner;
import com.google.common.base.Splitter;
import com.google.common.collect.ImmutableCollection;
import com.google.inject.servlet.GuiceFilter;
import org.apache.hadoop.http.HttpConfig;
import org.apache.hadoop.mapreduce.v2.app.MRAppMaster;
import org.apache.hadoop.mapreduce.v2.util.MRWebAppUtil;
import org.apache.hadoop.service.AbstractService;
import org.apache.hadoop.yarn.client.api.NMTokenCache;
import org.apache.hadoop.yarn.util.RackResolver;
import org.junit.jupiter.api.Test;
import org.jvmreuse.hadoop.audit.MutableStatics;

/**
 * Every mutable static field of the classes an MRAppMaster run uses, found by reflection, is
 * either reset after the run or named here as harmless, with the reason. Scope: every class of
 * hadoop-mapreduce-client-app, all of Guice's servlet extension, and the packages of the other
 * jars whose statics the AM sets or whose classes it uses for its web app, RPC, services and
 * history (mutable and found as {@link MutableStatics} says). A static added by another Hadoop
 * 2.x, or a class brought into scope, fails this test until it is classified. Hadoop 3.x's
 * audit is hadoop3-patch's AppMasterStaticsAudit3Test.
 */
class AppMasterStaticsAuditTest {
    /** Packages of other jars in scope (with their subpackages). */
    private static final List<String> PACKAGES = List.of("com.google.inject.servlet.",
            "org.apache.hadoop.yarn.webapp.", "org.apache.hadoop.http.", "org.apache.hadoop.service.",
            "org.apache.hadoop.mapreduce.v2.util.", "org.apache.hadoop.mapreduce.v2.jobhistory.",
            "org.apache.hadoop.yarn.client.", "org.apache.hadoop.yarn.util.", "org.apache.hadoop.yarn.event.",
            "org.apache.hadoop.yarn.state.");
    /** Jars of those packages, by a class of each. */
    private static final List<Class<?>> JARS = List.of(MRAppMaster.class, GuiceFilter.class, RackResolver.class,
            HttpConfig.class, MRWebAppUtil.class, NMTokenCache.class, AbstractService.class);
    private static final Set<Class<?>> IMMUTABLE = Set.of(String.class, Boolean.class, Character.class, Byte.class,
            Short.class, Integer.class, Long.class, Float.class, Double.class, Class.class, Pattern.class,
            Joiner.class, Splitter.class, CharMatcher.class, ImmutableCollection.class);
    private static final Set<Class<?>> LOGGERS = Set.of(org.apache.commons.logging.Log.class,
            org.apache.log4j.Logger.class, org.slf4j.Logger.class);
    private static final String JOB = "org.apache.hadoop.mapreduce.v2.app.job.impl.JobImpl#";
    private static final String TASK = "org.apache.hadoop.mapreduce.v2.app.job.impl.TaskImpl#";
    private static final String TASK_ATTEMPT = "org.apache.hadoop.mapreduce.v2.app.job.impl.TaskAttemptImpl#";
    private static final String HISTORY_UTILS = "org.apache.hadoop.mapreduce.v2.jobhistory.JobHistoryUtils#";
    private static final String FS_DOWNLOAD = "org.apache.hadoop.yarn.util.FSDownload#";

    /** Field ("class#field") -> the step that resets it. */
    static final Map<String, String> RESET = Map.ofEntries(
            entry("com.google.inject.servlet.GuiceFilter#pipeline", "AppMasterStatics"),
            entry("com.google.inject.servlet.GuiceFilter#servletContext", "AppMasterStatics"),
            entry("org.apache.hadoop.http.HttpConfig#policy", "AppMasterStatics"),
            entry("org.apache.hadoop.mapred.YarnChild#taskid", "MapReduceStatics"),
            entry("org.apache.hadoop.mapreduce.jobhistory.JobHistoryEventHandler#fileMap", "AppMasterStatics"),
            entry(TASK_ATTEMPT + "EMPTY_COUNTERS", "AppMasterStatics"),
            entry(TASK_ATTEMPT + "commonContainerSpec", "AppMasterStatics"),
            entry(TASK_ATTEMPT + "initialAppClasspath", "AppMasterStatics"),
            entry(TASK_ATTEMPT + "initialClasspath", "AppMasterStatics"),
            entry(TASK_ATTEMPT + "initialClasspathFlag", "AppMasterStatics"),
            entry("org.apache.hadoop.mapreduce.v2.util.MRWebAppUtil#httpPolicyInJHS", "AppMasterStatics"),
            entry("org.apache.hadoop.mapreduce.v2.util.MRWebAppUtil#httpPolicyInYarn", "AppMasterStatics"),
            entry("org.apache.hadoop.service.AbstractService#globalListeners", "AppMasterStatics"),
            entry("org.apache.hadoop.yarn.client.api.NMTokenCache#nmTokens", "AppMasterStatics"),
            entry("org.apache.hadoop.yarn.util.RackResolver#dnsToSwitchMapping", "AppMasterStatics"),
            entry("org.apache.hadoop.yarn.util.RackResolver#initCalled", "AppMasterStatics"));

    /** Field -> why it may outlive a run. */
    static final Map<String, String> HARMLESS = Map.ofEntries(
            entry("com.google.inject.servlet.GuiceFilter#localContext", REQUEST_LOCAL),
            entry("com.google.inject.servlet.ServletScopes#requestScopeContext", REQUEST_LOCAL),
            entry("com.google.inject.servlet.ManagedFilterPipeline#FILTER_DEFS", "a constant TypeLiteral"),
            entry("com.google.inject.servlet.ManagedServletPipeline#SERVLET_DEFS", "a constant TypeLiteral"),
            entry("com.google.inject.servlet.ServletScopes#REQUEST", "a Scope without state"),
            entry("com.google.inject.servlet.ServletScopes#SESSION", "a Scope without state"),
            entry("org.apache.hadoop.http.HtmlQuoting#ampBytes", CONSTANT_ARRAY),
            entry("org.apache.hadoop.http.HtmlQuoting#aposBytes", CONSTANT_ARRAY),
            entry("org.apache.hadoop.http.HtmlQuoting#gtBytes", CONSTANT_ARRAY),
            entry("org.apache.hadoop.http.HtmlQuoting#ltBytes", CONSTANT_ARRAY),
            entry("org.apache.hadoop.http.HtmlQuoting#quotBytes", CONSTANT_ARRAY),
            entry("org.apache.hadoop.mapreduce.jobhistory.JobSummary#charsToEscape", CONSTANT_ARRAY),
            entry("org.apache.hadoop.mapreduce.v2.app.job.impl.JobImpl#EMPTY_TASK_ATTEMPT_COMPLETION_EVENTS", "an empty array"),
            entry("org.apache.hadoop.mapreduce.v2.app.job.impl.JobImpl#EMPTY_TASK_COMPLETION_EVENTS", "an empty array"),
            entry("org.apache.hadoop.mapreduce.v2.app.security.authorize.ClientHSPolicyProvider#mrHSServices",
                    CONSTANT_ARRAY),
            entry("org.apache.hadoop.mapreduce.v2.app.security.authorize.MRAMPolicyProvider"
                    + "#mapReduceApplicationMasterServices", CONSTANT_ARRAY),
            entry("org.apache.hadoop.service.ServiceStateModel#statemap", CONSTANT_ARRAY),
            entry("org.apache.hadoop.mapred.LocalContainerLauncher#curDir",
                    "new File(\".\"): relative, so it is each run's working directory"),
            entry("org.apache.hadoop.mapred.TaskAttemptListenerImpl#TASK_FOR_INVALID_JVM",
                    "a JvmTask without a task, made once, only ever written to the wire"),
            entry("org.apache.hadoop.mapred.YarnChild#urw_gr", IMMUTABLE_PERMISSION),
            entry(JOB + "COUNTER_UPDATE_TRANSITION", STATE_MACHINE),
            entry(JOB + "DIAGNOSTIC_UPDATE_TRANSITION", STATE_MACHINE),
            entry(JOB + "INTERNAL_ERROR_TRANSITION", STATE_MACHINE),
            entry(JOB + "INTERNAL_REBOOT_TRANSITION", STATE_MACHINE),
            entry(JOB + "TASK_ATTEMPT_COMPLETED_EVENT_TRANSITION", STATE_MACHINE),
            entry(JOB + "UPDATED_NODES_TRANSITION", STATE_MACHINE),
            entry(JOB + "stateMachineFactory", STATE_MACHINE),
            entry(TASK_ATTEMPT + "CLEANUP_CONTAINER_TRANSITION", STATE_MACHINE),
            entry(TASK_ATTEMPT + "DIAGNOSTIC_INFORMATION_UPDATE_TRANSITION", STATE_MACHINE),
            entry(TASK_ATTEMPT + "stateMachineFactory", STATE_MACHINE),
            entry(TASK + "ATTEMPT_KILLED_TRANSITION", STATE_MACHINE),
            entry(TASK + "KILL_TRANSITION", STATE_MACHINE),
            entry(TASK + "stateMachineFactory", STATE_MACHINE),
            entry("org.apache.hadoop.yarn.client.api.async.impl.NMClientAsyncImpl$StatefulContainer#stateMachineFactory",
                    STATE_MACHINE),
            entry(TASK + "TA_INFO_COMPARATOR", "a Comparator without state"),
            entry(TASK_ATTEMPT + "classpathLock", "a lock"),
            entry(TASK_ATTEMPT + "commonContainerSpecLock", "a lock, never reassigned"),
            entry(TASK_ATTEMPT + "recordFactory",
                    "YARN's record factory singleton; the run's entries in its class cache go in ClassRegistries"),
            entry("org.apache.hadoop.mapreduce.v2.app.rm.RMContainerAllocator#PRIORITY_FAST_FAIL_MAP", PRIORITY),
            entry("org.apache.hadoop.mapreduce.v2.app.rm.RMContainerAllocator#PRIORITY_MAP", PRIORITY),
            entry("org.apache.hadoop.mapreduce.v2.app.rm.RMContainerAllocator#PRIORITY_REDUCE", PRIORITY),
            entry("org.apache.hadoop.mapreduce.v2.jobhistory.JHAdminConfig#DEFAULT_MR_HISTORY_MINICLUSTER_FIXED_PORTS",
                    NOT_FINAL),
            entry("org.apache.hadoop.mapreduce.v2.jobhistory.JHAdminConfig#DEFAULT_MR_HS_HTTP_POLICY", NOT_FINAL),
            entry("org.apache.hadoop.mapreduce.v2.util.MRProtoUtils#JOB_STATE_PREFIX", NOT_FINAL),
            entry("org.apache.hadoop.mapreduce.v2.util.MRProtoUtils#PHASE_PREFIX", NOT_FINAL),
            entry("org.apache.hadoop.mapreduce.v2.util.MRProtoUtils#TACE_PREFIX", NOT_FINAL),
            entry("org.apache.hadoop.mapreduce.v2.util.MRProtoUtils#TASK_ATTEMPT_STATE_PREFIX", NOT_FINAL),
            entry("org.apache.hadoop.mapreduce.v2.util.MRProtoUtils#TASK_STATE_PREFIX", NOT_FINAL),
            entry("org.apache.hadoop.yarn.util.ProcfsBasedProcessTree#deadPid", NOT_FINAL),
            entry("org.apache.hadoop.yarn.util.ProcfsBasedProcessTree#numberPattern", NOT_FINAL),
            entry(HISTORY_UTILS + "HISTORY_DONE_DIR_PERMISSION", IMMUTABLE_PERMISSION),
            entry(HISTORY_UTILS + "HISTORY_DONE_DIR_UMASK", IMMUTABLE_PERMISSION),
            entry(HISTORY_UTILS + "HISTORY_DONE_FILE_PERMISSION", IMMUTABLE_PERMISSION),
            entry(HISTORY_UTILS + "HISTORY_INTERMEDIATE_DONE_DIR_PERMISSIONS", IMMUTABLE_PERMISSION),
            entry(HISTORY_UTILS + "HISTORY_INTERMEDIATE_FILE_PERMISSIONS", IMMUTABLE_PERMISSION),
            entry(HISTORY_UTILS + "HISTORY_INTERMEDIATE_USER_DIR_PERMISSIONS", IMMUTABLE_PERMISSION),
            entry(HISTORY_UTILS + "HISTORY_STAGING_DIR_PERMISSIONS", IMMUTABLE_PERMISSION),
            entry(HISTORY_UTILS + "HISTORY_STAGING_USER_DIR_PERMISSIONS", IMMUTABLE_PERMISSION),
            entry(HISTORY_UTILS + "CONF_FILTER", "a PathFilter without state"),
            entry(HISTORY_UTILS + "JOB_HISTORY_FILE_FILTER", "a PathFilter without state"),
            entry("org.apache.hadoop.yarn.util.ApplicationClassLoader#JAR_FILENAME_FILTER", "a FilenameFilter without state"),
            entry("org.apache.hadoop.yarn.client.api.impl.AMRMClientImpl#ANY_LIST", "Collections.singletonList(\"*\")"),
            entry(FS_DOWNLOAD + "PRIVATE_DIR_PERMS", NODE_MANAGER_PERMISSION),
            entry(FS_DOWNLOAD + "PRIVATE_FILE_PERMS", NODE_MANAGER_PERMISSION),
            entry(FS_DOWNLOAD + "PUBLIC_DIR_PERMS", NODE_MANAGER_PERMISSION),
            entry(FS_DOWNLOAD + "PUBLIC_FILE_PERMS", NODE_MANAGER_PERMISSION),
            entry(FS_DOWNLOAD + "cachePerms", NODE_MANAGER_PERMISSION),
            entry("org.apache.hadoop.yarn.util.Times#dateFormat", "a per-thread date format, the same for every run"),
            entry("org.apache.hadoop.yarn.util.YarnVersionInfo#YARN_VERSION_INFO", "the jar's build information"),
            entry("org.apache.hadoop.yarn.util.resource.Resources#NONE", "a Resource whose setters throw"),
            entry("org.apache.hadoop.yarn.util.resource.Resources#UNBOUNDED", "a Resource whose setters throw"),
            entry("org.apache.hadoop.yarn.webapp.Controller#jsonMapper",
                    "Jackson's mapper, configured once; it caches serializers of the web app's (Hadoop's) classes"),
            entry("org.apache.hadoop.yarn.webapp.hamlet.HamletGen#opts", "command-line options of a build tool"));

    @Test
    void everyMutableStaticIsResetOrHarmless() throws Exception {
        assertEquals(Set.of(), MutableStatics.unclassified(mutableStatics(), RESET, HARMLESS),
                "mutable statics neither reset nor known to be harmless");
    }

    @Test
    void everyClassifiedStaticExists() throws Exception {
        assertEquals(Set.of(), MutableStatics.stale(mutableStatics(), RESET, HARMLESS),
                "classified, but not a mutable static any more");
        assertTrue(HARMLESS.values().stream().noneMatch(String::isBlank));
    }

    private static Set<String> mutableStatics() throws Exception {
        return new MutableStatics(IMMUTABLE, LOGGERS).in(MRAppMaster.class, JARS, PACKAGES);
    }
}
