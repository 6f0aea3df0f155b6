package org.jvmreuse.hadoop3.task;

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

import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import com.google.inject.servlet.GuiceFilter;
import org.apache.hadoop.http.HttpConfig;
import org.apache.hadoop.mapreduce.v2.app.MRAppMaster;
import org.apache.hadoop.mapreduce.v2.util.MRWebAppUtil;
import org.apache.hadoop.service.AbstractService;
import org.apache.hadoop.util.VersionInfo;
import org.apache.hadoop.util.VersionUtil;
import org.apache.hadoop.yarn.client.api.NMTokenCache;
import org.apache.hadoop.yarn.util.RackResolver;
import org.junit.jupiter.api.Test;
import org.jvmreuse.hadoop.audit.MutableStatics;

/**
 * Hadoop 3.x's audit of the statics an MRAppMaster run may leave (hadoop-patch's
 * AppMasterStaticsAuditTest is 2.2's): every mutable static field ({@link MutableStatics}) of
 * the classes an MRAppMaster run uses is either reset after the run or named here as harmless,
 * with the reason, on the Hadoop this module is built against (hadoop3.version) and on 3.4.2
 * (hadoop34-install runs this test against its jars). The two differ in three statics of 3.5's
 * web services, which 3.4.2 has not ({@link #HARMLESS_SINCE_3_5}); 3.4.2 has none that 3.5.0
 * lacks (but a logger). Scope, as 2.2's:
 * every class of hadoop-mapreduce-client-app, all of Guice's servlet extension (3.x's web app
 * serves its pages through GuiceFilter, on Jetty 9), and the packages of the other jars whose
 * statics the AM sets or whose classes it uses for its web app, RPC, services and history. Not in
 * scope: Jetty's, Jersey's and HK2's own classes (as Jetty's and Jersey's were not on 2.2): the
 * AM stops its web server, and a slot checks after each run for threads and servers left. A
 * static that a newer 3.x adds, or a class brought into scope, fails this test until it is
 * classified; so does a classified one that is gone.
 */
class AppMasterStaticsAudit3Test {
    /** Packages of other jars in scope (with their subpackages). */
    private static final List<String> PACKAGES = List.of("com.google.inject.servlet.",
            "org.apache.hadoop.yarn.webapp.", "org.apache.hadoop.http.", "org.apache.hadoop.service.",
            "org.apache.hadoop.mapreduce.v2.util.", "org.apache.hadoop.mapreduce.v2.jobhistory.",
            "org.apache.hadoop.yarn.client.", "org.apache.hadoop.yarn.util.", "org.apache.hadoop.yarn.event.",
            "org.apache.hadoop.yarn.state.");
    /** Jars of those packages, by a class of each. */
    private static final List<Class<?>> JARS = List.of(GuiceFilter.class, RackResolver.class,
            HttpConfig.class, MRWebAppUtil.class, NMTokenCache.class, AbstractService.class);
    /** Guava's immutable types: Guice's own Guava, and the copy Hadoop 3.x shades for itself. */
    private static final Set<Class<?>> IMMUTABLE = Set.of(String.class, Boolean.class, Character.class, Byte.class,
            Short.class, Integer.class, Long.class, Float.class, Double.class, Class.class, Pattern.class,
            DateTimeFormatter.class, com.google.common.base.Joiner.class, com.google.common.base.Splitter.class,
            com.google.common.base.CharMatcher.class, com.google.common.collect.ImmutableCollection.class,
            org.apache.hadoop.thirdparty.com.google.common.base.Joiner.class,
            org.apache.hadoop.thirdparty.com.google.common.base.Splitter.class,
            org.apache.hadoop.thirdparty.com.google.common.base.CharMatcher.class,
            org.apache.hadoop.thirdparty.com.google.common.collect.ImmutableCollection.class);
    private static final Set<Class<?>> LOGGERS = Set.of(org.apache.commons.logging.Log.class,
            org.apache.log4j.Logger.class, org.slf4j.Logger.class, java.util.logging.Logger.class);
    private static final String JOB = "org.apache.hadoop.mapreduce.v2.app.job.impl.JobImpl#";
    private static final String TASK = "org.apache.hadoop.mapreduce.v2.app.job.impl.TaskImpl#";
    private static final String TASK_ATTEMPT = "org.apache.hadoop.mapreduce.v2.app.job.impl.TaskAttemptImpl#";
    private static final String HISTORY_UTILS = "org.apache.hadoop.mapreduce.v2.jobhistory.JobHistoryUtils#";
    private static final String FS_DOWNLOAD = "org.apache.hadoop.yarn.util.FSDownload#";
    private static final String ALLOCATOR = "org.apache.hadoop.mapreduce.v2.app.rm.RMContainerAllocator#";
    private static final String ROUTER_CLI = "org.apache.hadoop.yarn.client.cli.RouterCLI#";
    private static final String TOP_CLI = "org.apache.hadoop.yarn.client.cli.TopCLI#";
    private static final String CONSTANT_SET = "a set the class initialiser fills, only read";
    private static final String STATELESS = "an object without state";
    private static final String JSON_MAPPER = "Jackson's mapper, configured by the class initialiser; it caches"
            + " serializers of Hadoop's classes";
    private static final String CLI = "of a command-line tool of YARN's, which an MRAppMaster never runs";

    /** Field ("class#field") -> the step that resets it. */
    static final Map<String, String> RESET = Map.ofEntries(
            entry("com.google.inject.servlet.GuiceFilter#pipeline", "AppMasterStatics"),
            entry("com.google.inject.servlet.GuiceFilter#servletContext", "AppMasterStatics"),
            entry("org.apache.hadoop.mapred.YarnChild#taskid", "MapReduceStatics"),
            entry("org.apache.hadoop.mapreduce.jobhistory.JobHistoryEventHandler#fileMap", "AppMasterStatics"),
            entry("org.apache.hadoop.mapreduce.v2.app.MRAppMaster#mainStarted", "AppMasterStatics"),
            entry(TASK_ATTEMPT + "EMPTY_COUNTERS", "AppMasterStatics"),
            entry(TASK_ATTEMPT + "RESOURCE_REQUEST_CACHE", "AppMasterStatics"),
            entry(TASK_ATTEMPT + "commonContainerSpec", "AppMasterStatics"),
            entry(TASK_ATTEMPT + "initialAppClasspath", "AppMasterStatics"),
            entry(TASK_ATTEMPT + "initialClasspath", "AppMasterStatics"),
            entry(TASK_ATTEMPT + "initialClasspathFlag", "AppMasterStatics"),
            entry("org.apache.hadoop.mapreduce.v2.util.MRWebAppUtil#httpPolicyInJHS", "AppMasterStatics"),
            entry("org.apache.hadoop.mapreduce.v2.util.MRWebAppUtil#httpPolicyInYarn", "AppMasterStatics"),
            entry("org.apache.hadoop.service.AbstractService#globalListeners", "AppMasterStatics"),
            entry("org.apache.hadoop.yarn.client.api.NMTokenCache#NM_TOKEN_CACHE", "AppMasterStatics"),
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
            entry("org.apache.hadoop.http.HtmlQuoting#AMP_BYTES", CONSTANT_ARRAY),
            entry("org.apache.hadoop.http.HtmlQuoting#APOS_BYTES", CONSTANT_ARRAY),
            entry("org.apache.hadoop.http.HtmlQuoting#GT_BYTES", CONSTANT_ARRAY),
            entry("org.apache.hadoop.http.HtmlQuoting#LT_BYTES", CONSTANT_ARRAY),
            entry("org.apache.hadoop.http.HtmlQuoting#QUOT_BYTES", CONSTANT_ARRAY),
            entry("org.apache.hadoop.http.HttpConfig$Policy#VALUES", CONSTANT_ARRAY),
            entry("org.apache.hadoop.http.HttpRequestLog#serverToComponent",
                    "a map of server names to components the class initialiser fills, only read"),
            entry("org.apache.hadoop.http.ProfileServlet#ID_GEN",
                    "numbers the output files of profiles asked for through a web UI's /prof (off by default)"),
            entry("org.apache.hadoop.http.ProfileServlet#isTestRun", "set by Hadoop's own tests only"),
            entry("org.apache.hadoop.mapreduce.jobhistory.JobHistoryEventHandler#MAPREDUCE_JOB_ENTITY_TYPE", NOT_FINAL),
            entry("org.apache.hadoop.mapreduce.jobhistory.JobHistoryEventHandler#MAPREDUCE_TASK_ENTITY_TYPE", NOT_FINAL),
            entry("org.apache.hadoop.mapreduce.jobhistory.JobSummary#charsToEscape", CONSTANT_ARRAY),
            entry(JOB + "EMPTY_TASK_ATTEMPT_COMPLETION_EVENTS", "an empty array"),
            entry(JOB + "EMPTY_TASK_COMPLETION_EVENTS", "an empty array"),
            entry("org.apache.hadoop.mapreduce.v2.app.security.authorize.ClientHSPolicyProvider#mrHSServices",
                    CONSTANT_ARRAY),
            entry("org.apache.hadoop.mapreduce.v2.app.security.authorize.MRAMPolicyProvider"
                    + "#mapReduceApplicationMasterServices", CONSTANT_ARRAY),
            entry("org.apache.hadoop.service.ServiceStateModel#statemap", CONSTANT_ARRAY),
            entry("org.apache.hadoop.service.launcher.ServiceLauncher#DEFAULT_CONFIGS", CONSTANT_ARRAY),
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
            entry(TASK_ATTEMPT + "FAILED_FINISHING_TRANSITION", STATE_MACHINE),
            entry(TASK_ATTEMPT + "FAILED_KILLED_STATE_IGNORED_EVENTS", STATE_MACHINE),
            entry(TASK_ATTEMPT + "FINALIZE_FAILED_TRANSITION", STATE_MACHINE),
            entry(TASK_ATTEMPT + "FINISHING_ON_TIMEOUT_TRANSITION", STATE_MACHINE),
            entry(TASK_ATTEMPT + "SUCCEEDED_FINISHING_TRANSITION", STATE_MACHINE),
            entry(TASK_ATTEMPT + "stateMachineFactory", STATE_MACHINE),
            entry(TASK + "ATTEMPT_KILLED_TRANSITION", STATE_MACHINE),
            entry(TASK + "KILL_TRANSITION", STATE_MACHINE),
            entry(TASK + "stateMachineFactory", STATE_MACHINE),
            entry("org.apache.hadoop.yarn.client.api.async.impl.NMClientAsyncImpl$StatefulContainer#stateMachineFactory",
                    STATE_MACHINE),
            entry(TASK + "TA_INFO_COMPARATOR", "a Comparator without state"),
            entry(TASK_ATTEMPT + "classpathLock", "a lock"),
            entry(TASK_ATTEMPT + "commonContainerSpecLock", "a lock, assigned by the class initialiser only"),
            entry(TASK_ATTEMPT + "recordFactory",
                    "YARN's record factory singleton; the run's entries in its class cache go in ClassRegistries"),
            entry(ALLOCATOR + "PRIORITY_FAST_FAIL_MAP", PRIORITY),
            entry(ALLOCATOR + "PRIORITY_MAP", PRIORITY),
            entry(ALLOCATOR + "PRIORITY_OPPORTUNISTIC_MAP", PRIORITY),
            entry(ALLOCATOR + "PRIORITY_REDUCE", PRIORITY),
            entry("org.apache.hadoop.mapreduce.v2.app.rm.RMContainerRequestor#RESOURCE_REQUEST_COMPARATOR",
                    "a Comparator without state"),
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
            entry(HISTORY_UTILS + "HISTORY_STAGING_DIR_PERMISSIONS", IMMUTABLE_PERMISSION),
            entry(HISTORY_UTILS + "HISTORY_STAGING_USER_DIR_PERMISSIONS", IMMUTABLE_PERMISSION),
            entry(HISTORY_UTILS + "CONF_FILTER", "a PathFilter without state"),
            entry(HISTORY_UTILS + "JOB_HISTORY_FILE_FILTER", "a PathFilter without state"),
            entry("org.apache.hadoop.yarn.client.api.impl.AMRMClientImpl#ANY_LIST", "Collections.singletonList(\"*\")"),
            entry("org.apache.hadoop.yarn.client.api.impl.TimelineClientImpl#MAPPER", JSON_MAPPER),
            entry("org.apache.hadoop.yarn.client.api.impl.TimelineClientImpl#opts", "the command-line options of its main"),
            entry("org.apache.hadoop.yarn.client.util.YarnClientUtils#BASE_64_CODEC",
                    "a Base64 codec: its encode and decode keep their state per call"),
            entry("org.apache.hadoop.yarn.client.cli.ApplicationCLI#firstArg", CLI),
            entry("org.apache.hadoop.yarn.client.cli.ClusterCLI#localNodeLabelsManager", CLI),
            entry("org.apache.hadoop.yarn.client.cli.RMAdminCLI#ADMIN_USAGE", CLI),
            entry("org.apache.hadoop.yarn.client.cli.RMAdminCLI#OPTION_SUBCLUSTERID", CLI),
            entry("org.apache.hadoop.yarn.client.cli.RMAdminCLI#localNodeLabelsManager", CLI),
            entry(ROUTER_CLI + "ADMIN_USAGE", CLI),
            entry(ROUTER_CLI + "APPLICATION_DELETE_USAGE", CLI),
            entry(ROUTER_CLI + "APPLICATION_USAGEINFOS", CLI),
            entry(ROUTER_CLI + "DEREGISTER_SUBCLUSTER_HEADER", CLI),
            entry(ROUTER_CLI + "DEREGISTER_SUBCLUSTER_USAGE", CLI),
            entry(ROUTER_CLI + "GET_SUBCLUSTER_HEADER", CLI),
            entry(ROUTER_CLI + "GET_SUBCLUSTER_USAGE", CLI),
            entry(ROUTER_CLI + "LIST_POLICIES_HEADER", CLI),
            entry(ROUTER_CLI + "POLICY_BATCH_SAVE_USAGE", CLI),
            entry(ROUTER_CLI + "POLICY_DELETE_USAGE", CLI),
            entry(ROUTER_CLI + "POLICY_LIST_USAGE", CLI),
            entry(ROUTER_CLI + "POLICY_SAVE_USAGE", CLI),
            entry(ROUTER_CLI + "POLICY_USAGEINFOS", CLI),
            entry(ROUTER_CLI + "SUBCLUSTER_USAGEINFOS", CLI),
            entry(TOP_CLI + "AppIDComparator", CLI),
            entry(TOP_CLI + "AppNameComparator", CLI),
            entry(TOP_CLI + "AppPriorityComparator", CLI),
            entry(TOP_CLI + "AppTypeComparator", CLI),
            entry(TOP_CLI + "MemorySecondsComparator", CLI),
            entry(TOP_CLI + "ProgressComparator", CLI),
            entry(TOP_CLI + "QueueNameComparator", CLI),
            entry(TOP_CLI + "ReservedContainersComparator", CLI),
            entry(TOP_CLI + "ReservedMemoryComparator", CLI),
            entry(TOP_CLI + "ReservedVCoresComparator", CLI),
            entry(TOP_CLI + "RunningTimeComparator", CLI),
            entry(TOP_CLI + "UsedContainersComparator", CLI),
            entry(TOP_CLI + "UsedMemoryComparator", CLI),
            entry(TOP_CLI + "UsedVCoresComparator", CLI),
            entry(TOP_CLI + "UserComparator", CLI),
            entry(TOP_CLI + "VCoreSecondsComparator", CLI),
            entry("org.apache.hadoop.yarn.event.AsyncDispatcher#FATAL", "an slf4j Marker, made once, only read"),
            entry("org.apache.hadoop.yarn.event.EventDispatcher#FATAL", "an slf4j Marker, made once, only read"),
            entry("org.apache.hadoop.yarn.state.StateMachineFactory#NOOP_LISTENER", STATELESS),
            entry("org.apache.hadoop.yarn.util.AdHocLogDumper#lock", "a lock"),
            entry("org.apache.hadoop.yarn.util.AdHocLogDumper#logFlag",
                    "true only while a ResourceManager's ad-hoc log dump runs; an MRAppMaster makes none"),
            entry(FS_DOWNLOAD + "PRIVATE_DIR_PERMS", NODE_MANAGER_PERMISSION),
            entry(FS_DOWNLOAD + "PRIVATE_FILE_PERMS", NODE_MANAGER_PERMISSION),
            entry(FS_DOWNLOAD + "PUBLIC_DIR_PERMS", NODE_MANAGER_PERMISSION),
            entry(FS_DOWNLOAD + "PUBLIC_FILE_PERMS", NODE_MANAGER_PERMISSION),
            entry(FS_DOWNLOAD + "cachePerms", NODE_MANAGER_PERMISSION),
            entry("org.apache.hadoop.yarn.util.SystemClock#INSTANCE", STATELESS),
            entry("org.apache.hadoop.yarn.util.YarnVersionInfo#YARN_VERSION_INFO", "the jar's build information"),
            entry("org.apache.hadoop.yarn.util.resource.DefaultResourceCalculator#INSUFFICIENT_RESOURCE_NAME", CONSTANT_SET),
            entry("org.apache.hadoop.yarn.util.resource.Resources#NONE", "a Resource whose setters throw"),
            entry("org.apache.hadoop.yarn.util.resource.Resources#UNBOUNDED", "a Resource whose setters throw"),
            entry("org.apache.hadoop.yarn.util.timeline.TimelineUtils#mapper", JSON_MAPPER),
            entry("org.apache.hadoop.yarn.webapp.Controller#jsonMapper", JSON_MAPPER),
            entry("org.apache.hadoop.yarn.webapp.hamlet2.HamletGen#opts", "command-line options of a build tool"),
            entry("org.apache.hadoop.yarn.webapp.util.WebServiceClient#instance",
                    "set by `yarn logs` (LogsCLI.initialize) only, never by an MRAppMaster"),
            entry("org.apache.hadoop.yarn.webapp.util.WebServiceClient#isHttps",
                    "set by `yarn logs` (LogsCLI.initialize) only, never by an MRAppMaster"),
            entry("org.apache.hadoop.yarn.webapp.util.WebServiceClient#sslFactory",
                    "set by `yarn logs` (LogsCLI.initialize) only, never by an MRAppMaster"));

    /** Field -> why it may outlive a run: statics of 3.5's web services (Jersey 2) that 3.4 has not. */
    static final Map<String, String> HARMLESS_SINCE_3_5 = Map.ofEntries(
            entry("org.apache.hadoop.mapreduce.v2.app.webapp.jsonprovider.ClassSerializationConfig#CONST_UNWRAPPED_CLASSES",
                    CONSTANT_SET),
            entry("org.apache.hadoop.mapreduce.v2.app.webapp.jsonprovider.ClassSerializationConfig#CONST_WRAPPED_CLASSES",
                    CONSTANT_SET),
            entry("org.apache.hadoop.yarn.webapp.util.YarnWebServiceUtils#mapper", JSON_MAPPER));

    @Test
    void everyMutableStaticIsResetOrHarmless() throws Exception {
        assertEquals(Set.of(), MutableStatics.unclassified(mutableStatics(), RESET, harmless()),
                "mutable statics of Hadoop " + VersionInfo.getVersion() + " neither reset nor known to be harmless");
    }

    @Test
    void everyClassifiedStaticExists() throws Exception {
        assertEquals(Set.of(), MutableStatics.stale(mutableStatics(), RESET, harmless()),
                "classified, but not a mutable static of Hadoop " + VersionInfo.getVersion());
        assertTrue(harmless().values().stream().noneMatch(String::isBlank));
    }

    /** The harmless statics of the Hadoop this test runs against (3.5.0 here, 3.4.2 in hadoop34-install). */
    private static Map<String, String> harmless() {
        Map<String, String> all = new HashMap<>(HARMLESS);
        if (VersionUtil.compareVersions(VersionInfo.getVersion(), "3.5") >= 0) {
            all.putAll(HARMLESS_SINCE_3_5);
        }
        return all;
    }

    private static Set<String> mutableStatics() throws Exception {
        return new MutableStatics(IMMUTABLE, LOGGERS).in(MRAppMaster.class, JARS, PACKAGES);
    }
}
