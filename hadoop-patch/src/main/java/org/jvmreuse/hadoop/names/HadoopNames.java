package org.jvmreuse.hadoop.names;

import java.util.List;
import java.util.Optional;
import org.apache.hadoop.util.VersionInfo;

/**
 * The names of Hadoop (and of the log4j, commons-logging and Guice it bundles) that this
 * library reaches where the compiler cannot check them: by reflection, by {@code Class.forName}
 * or in a launch script. One nested class per user, named after it; the users read their names
 * from here (static imports), so HadoopNamesCheck checks exactly what they use. A name they
 * cannot find makes them skip a step ({@code SharedClasses.loaded}, optional classes) or fail it
 * (a field or method of a loaded class), so every name must exist in the Hadoop they run with:
 * HadoopNamesTest checks this for 2.2.0, names-check/pom.xml for another version (3.5.0).
 *
 * <p>The table is the one of the Hadoop beside it ({@link #HADOOP_3}: the major version of the
 * {@code VersionInfo} its class loader sees, as in a slot's shared loader, a NodeManager or the
 * check): where 3.x renamed a name it holds 3.x's ({@link #in2Or3}), and a name only one line has
 * is an {@link Optional}, empty on the other ({@link #onlyIn2}, {@link #onlyIn3}), which its user
 * must handle: nothing is skipped because a name is missing.
 */
public final class HadoopNames {
    private static final String MAP = "java.util.Map";
    private static final String BOOLEAN = "boolean";
    private static final String INT = "int";
    private static final String LONG = "long";
    private static final String STRING = "java.lang.String";
    private static final String OBJECT = "java.lang.Object";
    private static final String ATOMIC_BOOLEAN = "java.util.concurrent.atomic.AtomicBoolean";
    private static final String ATOMIC_INTEGER = "java.util.concurrent.atomic.AtomicInteger";
    private static final String ATOMIC_REFERENCE = "java.util.concurrent.atomic.AtomicReference";
    private static final String THREAD_POOL = "java.util.concurrent.ThreadPoolExecutor";
    private static final String SERVICE_LOADER = "java.util.ServiceLoader";
    private static final String WEAK_REFERENCE = "java.lang.ref.WeakReference";

    private static final ClassName FILE_SYSTEM_CLASS = new ClassName("org.apache.hadoop.fs.FileSystem");
    private static final ClassName UGI = new ClassName("org.apache.hadoop.security.UserGroupInformation");
    private static final ClassName TOKEN = new ClassName("org.apache.hadoop.security.token.Token");
    private static final ClassName IPC_SERVER = new ClassName("org.apache.hadoop.ipc.Server");
    private static final ClassName GUICE_FILTER = new ClassName("com.google.inject.servlet.GuiceFilter");
    private static final FieldName GUICE_SERVLET_CONTEXT = GUICE_FILTER.staticField("servletContext", WEAK_REFERENCE);

    /** Whether the Hadoop beside this table is 3.x (else 2.x: 2.2.0). */
    public static final boolean HADOOP_3 = VersionInfo.getVersion().matches("([3-9]|[1-9][0-9]+)\\..*");

    private HadoopNames() {
    }

    /** {@code hadoop2}'s name on Hadoop 2.x, {@code hadoop3}'s on 3.x. */
    private static <T> T in2Or3(T hadoop2, T hadoop3) {
        return HADOOP_3 ? hadoop3 : hadoop2;
    }

    /** A signature that a later version extends: {@code parameters}, then {@code more}. */
    private static List<String> followedBy(List<String> parameters, String... more) {
        return java.util.stream.Stream.concat(parameters.stream(), java.util.Arrays.stream(more)).toList();
    }

    /** A name that only Hadoop 2.x has: empty on 3.x. */
    private static <T> Optional<T> onlyIn2(T name) {
        return HADOOP_3 ? Optional.empty() : Optional.of(name);
    }

    /** A name that only Hadoop 3.x has: empty on 2.x. */
    private static <T> Optional<T> onlyIn3(T name) {
        return HADOOP_3 ? Optional.of(name) : Optional.empty();
    }

    /** The classes a slot initialises when it starts: the configurations (their default resources) first. */
    public static final class HadoopTaskReset {
        /** Every task's configuration state: a task (YarnChild) makes a JobConf first thing. */
        public static final List<ClassName> CONFIGURATIONS = List.of(
                new ClassName("org.apache.hadoop.conf.Configuration"),
                new ClassName("org.apache.hadoop.mapred.JobConf"));
        /**
         * YARN's configuration, whose initialiser adds yarn-default.xml, yarn-site.xml (and 3.x's
         * deprecations); in a new JVM only once something makes one or calls its static methods
         * (no class initialiser a task reaches does: an ASM scan of every version's jars).
         */
        public static final ClassName YARN_CONFIGURATION = new ClassName("org.apache.hadoop.yarn.conf.YarnConfiguration");
        public static final List<ClassName> YARN_FIRST_USE = List.of(YARN_CONFIGURATION);
        /** HDFS's, which adds hdfs-default.xml, hdfs-site.xml and HDFS's deprecations. */
        public static final ClassName HDFS_CONFIGURATION = new ClassName("org.apache.hadoop.hdfs.HdfsConfiguration");
        /** It, and the classes whose initialiser uses it (the same scan; on 3.x in hadoop-hdfs-client). */
        public static final List<ClassName> HDFS_FIRST_USE = List.of(HDFS_CONFIGURATION,
                new ClassName("org.apache.hadoop.hdfs.DistributedFileSystem"),
                new ClassName("org.apache.hadoop.fs.Hdfs"),
                new ClassName("org.apache.hadoop.hdfs.DFSClient$Renewer"),
                in2Or3(new ClassName("org.apache.hadoop.hdfs.protocol.HdfsConstants"),
                        new ClassName("org.apache.hadoop.hdfs.protocol.datatransfer.PacketReceiver")));
        /**
         * 3.x: also Token, whose renewers' ServiceLoader (final there) takes the context loader of
         * the moment it is initialised, which must be the shared loader, not a run's; and Counters,
         * whose final limits then come from the node's configuration, not from a task's job.
         */
        public static final List<ClassName> SLOT_INITIALISED = in2Or3(List.of(
                new ClassName("org.apache.hadoop.util.ShutdownHookManager"),
                new ClassName("org.apache.hadoop.io.compress.CompressionCodecFactory")), List.of(
                new ClassName("org.apache.hadoop.util.ShutdownHookManager"),
                new ClassName("org.apache.hadoop.io.compress.CompressionCodecFactory"), TOKEN,
                new ClassName("org.apache.hadoop.mapred.Counters"), StatisticsCleaner.STATISTICS));
    }

    /**
     * 3.x: FileSystem.Statistics' cleaner (2.2 has none), a thread its class initialiser starts,
     * which folds the statistics of ended threads into the totals and drops them.
     */
    public static final class StatisticsCleaner {
        public static final ClassName STATISTICS = FILE_SYSTEM_CLASS.nested("Statistics");
        public static final Optional<FieldName> CLEANER =
                onlyIn3(STATISTICS.staticField("STATS_DATA_CLEANER", "java.lang.Thread"));
    }

    /** Thread pools in static fields (each a ThreadPoolExecutor, to which SharedExecutors casts it). */
    public static final class SharedExecutors {
        /** 3.x: none (each connection has its own sender thread). */
        public static final Optional<FieldName> IPC_SEND_PARAMS = onlyIn2(new ClassName("org.apache.hadoop.ipc.Client")
                .staticField("SEND_PARAMS_EXECUTOR", THREAD_POOL));
        public static final FieldName QUANTILES_SCHEDULER = new ClassName("org.apache.hadoop.metrics2.lib.MutableQuantiles")
                .staticField("scheduler", "java.util.concurrent.ScheduledExecutorService");
        /** 3.x: no FileInputStreamCache. */
        public static final Optional<FieldName> INPUT_STREAM_CACHE_CLEANER =
                onlyIn2(new ClassName("org.apache.hadoop.hdfs.FileInputStreamCache")
                .staticField("executor", THREAD_POOL));
    }

    public static final class Log4jReset {
        private static final ClassName HIERARCHY = new ClassName("org.apache.log4j.Hierarchy");
        private static final ClassName LOG_MANAGER = new ClassName("org.apache.log4j.LogManager");
        public static final FieldName NO_APPENDER_WARNING = HIERARCHY.settableField("emittedNoAppenderWarning", BOOLEAN);
        public static final FieldName NO_RESOURCE_BUNDLE_WARNING =
                HIERARCHY.settableField("emittedNoResourceBundleWarning", BOOLEAN);
        public static final FieldName LISTENERS = HIERARCHY.field("listeners", "java.util.Vector");
        public static final FieldName NDC_STACKS =
                new ClassName("org.apache.log4j.NDC").staticField("ht", "java.util.Hashtable");
        public static final FieldName REPOSITORY_SELECTOR =
                LOG_MANAGER.settableStaticField("repositorySelector", "org.apache.log4j.spi.RepositorySelector");
        public static final FieldName GUARD = LOG_MANAGER.settableStaticField("guard", OBJECT);
    }

    public static final class CommonsLoggingReset {
        public static final FieldName FACTORIES = new ClassName("org.apache.commons.logging.LogFactory")
                .staticField("factories", "java.util.Hashtable");
    }

    public static final class ConfigurationReset {
        private static final ClassName CONFIGURATION = new ClassName("org.apache.hadoop.conf.Configuration");
        public static final FieldName DEFAULT_RESOURCES =
                CONFIGURATION.staticField("defaultResources", "java.util.concurrent.CopyOnWriteArrayList");
        public static final FieldName REGISTRY = CONFIGURATION.staticField("REGISTRY", "java.util.WeakHashMap");
        /**
         * The map of deprecated keys: a static map (2.x), or the map of the static
         * {@code AtomicReference}'s current DeprecationContext (3.x); each field read from the
         * object the one before gives (an AtomicReference's value).
         */
        public static final List<FieldName> DEPRECATED_KEYS = in2Or3(
                List.of(CONFIGURATION.staticField("deprecatedKeyMap", MAP)),
                List.of(CONFIGURATION.staticField("deprecationContext", ATOMIC_REFERENCE),
                        CONFIGURATION.nested("DeprecationContext").field("deprecatedKeyMap", MAP)));
        /** A boolean (2.x) or an AtomicBoolean (3.x). */
        public static final FieldName DEPRECATION_ACCESSED = in2Or3(
                CONFIGURATION.nested("DeprecatedKeyInfo").settableField("accessed", BOOLEAN),
                CONFIGURATION.nested("DeprecatedKeyInfo").field("accessed", ATOMIC_BOOLEAN));
        public static final FieldName CLASS_CACHE = CONFIGURATION.staticField("CACHE_CLASSES", MAP);
        /**
         * All deprecations, to put back after a run: 2.x's two static maps (set to copies), 3.x's
         * reference to its DeprecationContext (which is never changed, only replaced).
         */
        public static final List<FieldName> DEPRECATION_STATE = in2Or3(
                List.of(CONFIGURATION.settableStaticField("deprecatedKeyMap", MAP),
                        CONFIGURATION.settableStaticField("reverseDeprecatedKeyMap", MAP)),
                List.of(CONFIGURATION.staticField("deprecationContext", ATOMIC_REFERENCE)));
        public static final FieldName DEPRECATION_NEW_KEYS =
                CONFIGURATION.nested("DeprecatedKeyInfo").field("newKeys", "[Ljava.lang.String;");
        public static final FieldName DEPRECATION_MESSAGE = CONFIGURATION.nested("DeprecatedKeyInfo").field("customMessage", STRING);
        /**
         * 3.x: what addDeprecations(DeprecationDelta...) takes, to add many at once (each
         * addDeprecation copies all); the code makes them with the first, package-private constructor.
         */
        public static final Optional<Overloads> DEPRECATION_DELTA = onlyIn3(new Overloads(CONFIGURATION.nested("DeprecationDelta"),
                MethodName.CONSTRUCTOR, List.of(List.of(STRING, "[Ljava.lang.String;", STRING), List.of(STRING, STRING, STRING),
                        List.of(STRING, STRING))));
    }

    public static final class FileSystemReset {
        private static final ClassName CACHE_CLASS = FILE_SYSTEM_CLASS.nested("Cache");
        public static final FieldName CACHE = FILE_SYSTEM_CLASS.staticField("CACHE", CACHE_CLASS.name());
        public static final FieldName CACHE_MAP = CACHE_CLASS.field("map", MAP);
        public static final FieldName CACHE_TO_AUTO_CLOSE = CACHE_CLASS.field("toAutoClose", "java.util.Collection");
        public static final FieldName STATISTICS_TABLE = FILE_SYSTEM_CLASS.staticField("statisticsTable", MAP);
        public static final FieldName SERVICE_FILE_SYSTEMS = FILE_SYSTEM_CLASS.staticField("SERVICE_FILE_SYSTEMS", MAP);
        public static final FieldName FILE_SYSTEMS_LOADED =
                FILE_SYSTEM_CLASS.settableStaticField("FILE_SYSTEMS_LOADED", BOOLEAN);
        public static final FieldName SYMLINK_ENABLED = FILE_SYSTEM_CLASS.settableStaticField(
                in2Or3("symlinkEnabled", "symlinksEnabled"), BOOLEAN);
        /** 3.x: gone (FileSystem keeps no configuration). */
        public static final Optional<FieldName> CONF =
                onlyIn2(FILE_SYSTEM_CLASS.settableStaticField("conf", "org.apache.hadoop.conf.Configuration"));
        private static final ClassName GLOBAL_STORAGE_STATISTICS = new ClassName("org.apache.hadoop.fs.GlobalStorageStatistics");
        /** 3.x: the statistics of every file system instance by name (the enum's one instance, and its map). */
        public static final Optional<FieldName> GLOBAL_STATISTICS =
                onlyIn3(GLOBAL_STORAGE_STATISTICS.staticField("INSTANCE", GLOBAL_STORAGE_STATISTICS.name()));
        public static final Optional<FieldName> GLOBAL_STATISTICS_MAP =
                onlyIn3(GLOBAL_STORAGE_STATISTICS.field("map", MAP));
        public static final FieldName ABSTRACT_STATISTICS_TABLE = new ClassName("org.apache.hadoop.fs.AbstractFileSystem")
                .staticField("STATISTICS_TABLE", MAP);
        public static final FieldName DELETE_ON_EXIT = new ClassName("org.apache.hadoop.fs.FileContext")
                .staticField("DELETE_ON_EXIT", MAP);
        public static final FieldName ALLOCATOR_CONTEXTS = new ClassName("org.apache.hadoop.fs.LocalDirAllocator")
                .staticField("contexts", MAP);
        public static final FieldName HAR_METADATA = new ClassName("org.apache.hadoop.fs.HarFileSystem")
                .staticField("harMetaCache", MAP);
        public static final FieldName TOKEN_RENEWER = new ClassName("org.apache.hadoop.fs.DelegationTokenRenewer")
                .settableStaticField("INSTANCE", "org.apache.hadoop.fs.DelegationTokenRenewer");
        public static final FieldName SECURE_IO_FILE_SYSTEM = new ClassName("org.apache.hadoop.io.SecureIOUtils")
                .staticField("rawFilesystem", FILE_SYSTEM_CLASS.name());
        public static final FieldName STATISTICS =
                FILE_SYSTEM_CLASS.field("statistics", FILE_SYSTEM_CLASS.nested("Statistics").name());
        private static final ClassName AUDIT_CONTEXT = new ClassName("org.apache.hadoop.fs.audit.CommonAuditContext");
        /**
         * 3.x: the entries every file system's audit context carries (the S3A and ABFS audit
         * headers): the class initialiser's process id, and what a run adds (ToolRunner.run: the
         * tool as its command, "cm"), which the next run would otherwise carry as its own.
         */
        public static final Optional<FieldName> GLOBAL_AUDIT_CONTEXT = onlyIn3(AUDIT_CONTEXT.staticField("GLOBAL_CONTEXT_MAP", MAP));
        public static final Optional<FieldName> AUDIT_PROCESS_ID = onlyIn3(AUDIT_CONTEXT.staticField("PROCESS_ID", STRING));
        /** The process id's key ("ps"). */
        public static final Optional<FieldName> AUDIT_PROCESS_KEY = onlyIn3(
                new ClassName("org.apache.hadoop.fs.audit.AuditConstants").staticField("PARAM_PROCESS", STRING));
    }

    public static final class HdfsClientReset {
        private static final ClassName PEER_CACHE = new ClassName("org.apache.hadoop.hdfs.PeerCache");
        private static final ClassName CLIENT_CONTEXT = new ClassName("org.apache.hadoop.hdfs.ClientContext");
        private static final ClassName SHORT_CIRCUIT_CACHE = new ClassName("org.apache.hadoop.hdfs.shortcircuit.ShortCircuitCache");
        private static final ClassName KEY_PROVIDER_CACHE = new ClassName("org.apache.hadoop.hdfs.KeyProviderCache");
        private static final ClassName LEASE_RENEWER_FACTORY = new ClassName(
                in2Or3("org.apache.hadoop.hdfs", "org.apache.hadoop.hdfs.client.impl") + ".LeaseRenewer$Factory");
        /** 3.x: no JVM-wide peer cache (each ClientContext has its own: CLIENT_CONTEXTS). */
        public static final Optional<FieldName> PEER_CACHE_INSTANCE =
                onlyIn2(PEER_CACHE.settableStaticField("instance", PEER_CACHE.name()));
        public static final Optional<MethodName> PEER_CACHE_CLEAR = onlyIn2(PEER_CACHE.method("clear"));
        public static final FieldName LEASE_RENEWERS_INSTANCE =
                LEASE_RENEWER_FACTORY.staticField("INSTANCE", LEASE_RENEWER_FACTORY.name());
        public static final FieldName LEASE_RENEWERS = LEASE_RENEWER_FACTORY.field("renewers", MAP);
        public static final FieldName LOCAL_DATANODE_INFO = new ClassName(
                in2Or3("org.apache.hadoop.hdfs", "org.apache.hadoop.hdfs.client.impl") + ".BlockReaderLocalLegacy")
                .staticField("localDatanodeInfoMap", MAP);
        /** 3.x: the HDFS clients' contexts by name, each with its caches: closed and forgotten after a run. */
        public static final Optional<FieldName> CLIENT_CONTEXTS = onlyIn3(CLIENT_CONTEXT.staticField("CACHES", MAP));
        public static final Optional<FieldName> CONTEXT_PEER_CACHE = onlyIn3(CLIENT_CONTEXT.field("peerCache", PEER_CACHE.name()));
        /** Clears the sockets, stops and joins the expiry daemon. */
        public static final Optional<MethodName> PEER_CACHE_CLOSE = onlyIn3(PEER_CACHE.method("close"));
        public static final Optional<FieldName> CONTEXT_SHORT_CIRCUIT_CACHES = onlyIn3(
                CLIENT_CONTEXT.field("shortCircuitCache", "[L" + SHORT_CIRCUIT_CACHE.name() + ";"));
        /** Purges the replicas (their block files' descriptors), shuts its executors and shared memory down. */
        public static final Optional<MethodName> SHORT_CIRCUIT_CACHE_CLOSE = onlyIn3(SHORT_CIRCUIT_CACHE.method("close"));
        public static final Optional<FieldName> CONTEXT_KEY_PROVIDERS = onlyIn3(
                CLIENT_CONTEXT.field("keyProviderCache", KEY_PROVIDER_CACHE.name()));
        /** Closes the key providers (KMS clients) it holds, as its JVM shutdown hook does. */
        public static final Optional<MethodName> KEY_PROVIDERS_INVALIDATE = onlyIn3(KEY_PROVIDER_CACHE.method("invalidateCache"));
    }

    public static final class DfsClientReadPools {
        public static final ClassName DFS_CLIENT = new ClassName("org.apache.hadoop.hdfs.DFSClient");
        private static final ClassName HEDGED_READ_METRICS = new ClassName("org.apache.hadoop.hdfs.DFSHedgedReadMetrics");
        private static final String LONG_ADDER = "java.util.concurrent.atomic.LongAdder";
        /** 3.x: DFSClient's JVM-wide pools for striped reads (every client makes it) and hedged reads. */
        public static final Optional<List<FieldName>> POOLS = onlyIn3(List.of(
                DFS_CLIENT.settableStaticField("STRIPED_READ_THREAD_POOL", THREAD_POOL),
                DFS_CLIENT.settableStaticField("HEDGED_READ_THREAD_POOL", THREAD_POOL)));
        public static final Optional<FieldName> HEDGED_READ_METRIC =
                onlyIn3(DFS_CLIENT.staticField("HEDGED_READ_METRIC", HEDGED_READ_METRICS.name()));
        /** The hedged reads' counts (DFSClient's getHedgedReadMetrics; HBase reports them). */
        public static final Optional<List<FieldName>> HEDGED_READ_COUNTS = onlyIn3(List.of(
                HEDGED_READ_METRICS.field("hedgedReadOps", LONG_ADDER),
                HEDGED_READ_METRICS.field("hedgedReadOpsWin", LONG_ADDER),
                HEDGED_READ_METRICS.field("hedgedReadOpsInCurThread", LONG_ADDER)));
    }

    public static final class SecurityReset {
        public static final MethodName UGI_RESET = UGI.staticMethod("reset");
        /** 3.x: gone (each login user keeps its own keytab; reset() drops the login user). */
        public static final Optional<FieldName> KEYTAB_PRINCIPAL = onlyIn2(UGI.settableStaticField("keytabPrincipal", STRING));
        public static final Optional<FieldName> KEYTAB_FILE = onlyIn2(UGI.settableStaticField("keytabFile", STRING));
        public static final FieldName GROUPS = new ClassName("org.apache.hadoop.security.Groups")
                .settableStaticField("GROUPS", "org.apache.hadoop.security.Groups");
        public static final FieldName TOKEN_KINDS = TOKEN.settableStaticField("tokenKindMap", MAP);
        /** 3.x: forgets the default SSL socket factory, made once with the first run's channel mode (S3A, ABFS). */
        public static final Optional<MethodName> SSL_FACTORY_RESET = onlyIn3(
                new ClassName("org.apache.hadoop.security.ssl.DelegatingSSLSocketFactory").staticMethod("resetDefaultFactory"));
    }

    /** Static ServiceLoaders, each with the service it loads. */
    public static final class ServiceLoaderStatics {
        /**
         * 3.x: final (3.5.0), so it keeps the loader its initialiser saw: the shared loader, as
         * the slot initialises Token (HadoopTaskReset.SLOT_INITIALISED); a job's own TokenRenewers are not found.
         */
        public static final Optional<FieldName> TOKEN_RENEWERS = onlyIn2(TOKEN.settableStaticField("renewers", SERVICE_LOADER));
        public static final ClassName TOKEN_RENEWER = new ClassName("org.apache.hadoop.security.token.TokenRenewer");
        public static final FieldName SECURITY_INFO_PROVIDERS = new ClassName("org.apache.hadoop.security.SecurityUtil")
                .settableStaticField("securityInfoProviders", SERVICE_LOADER);
        public static final ClassName SECURITY_INFO = new ClassName("org.apache.hadoop.security.SecurityInfo");
        public static final FieldName FRAMEWORK_LOADER = new ClassName("org.apache.hadoop.mapreduce.Cluster")
                .settableStaticField("frameworkLoader", SERVICE_LOADER);
        public static final ClassName CLIENT_PROTOCOL_PROVIDER =
                new ClassName("org.apache.hadoop.mapreduce.protocol.ClientProtocolProvider");
    }

    public static final class MetricsReset {
        private static final ClassName DEFAULT_METRICS_SYSTEM =
                new ClassName("org.apache.hadoop.metrics2.lib.DefaultMetricsSystem");
        private static final ClassName UNIQUE_NAMES = new ClassName("org.apache.hadoop.metrics2.lib.UniqueNames");
        private static final ClassName JVM_METRICS_SINGLETON =
                new ClassName("org.apache.hadoop.metrics2.source.JvmMetrics$Singleton");
        private static final ClassName EVENT_COUNTER = new ClassName("org.apache.hadoop.log.metrics.EventCounter");
        public static final FieldName MBEAN_NAMES = DEFAULT_METRICS_SYSTEM.field("mBeanNames", UNIQUE_NAMES.name());
        public static final FieldName SOURCE_NAMES = DEFAULT_METRICS_SYSTEM.field("sourceNames", UNIQUE_NAMES.name());
        public static final FieldName NAMES_MAP = UNIQUE_NAMES.field("map", MAP);
        public static final FieldName JVM_METRICS_INSTANCE =
                JVM_METRICS_SINGLETON.staticField("INSTANCE", JVM_METRICS_SINGLETON.name());
        public static final FieldName JVM_METRICS_IMPL = JVM_METRICS_SINGLETON.settableField("impl",
                "org.apache.hadoop.metrics2.source.JvmMetrics");
        /** 3.x: no EventCounter (log event counts). */
        public static final Optional<ClassName> EVENT_COUNTS = onlyIn2(EVENT_COUNTER.nested("EventCounts"));
        public static final Optional<MethodName> NEW_EVENT_COUNTS = onlyIn2(EVENT_COUNTER.nested("EventCounts").constructor());
        public static final Optional<FieldName> COUNTS =
                onlyIn2(EVENT_COUNTER.settableStaticField("counts", EVENT_COUNTER.nested("EventCounts").name()));
        public static final ClassName UGI_METRICS = UGI.nested("UgiMetrics");
        public static final MethodName CREATE_UGI_METRICS = UGI_METRICS.staticMethod("create");
        public static final FieldName METRICS = UGI.settableStaticField("metrics", UGI_METRICS.name());
    }

    /** 3.x: none of it (metrics v1 is gone; the shuffle's client metrics are metrics2's). */
    public static final class MetricsV1Reset {
        private static final ClassName CONTEXT_FACTORY = new ClassName("org.apache.hadoop.metrics.ContextFactory");
        public static final Optional<FieldName> THE_FACTORY =
                onlyIn2(CONTEXT_FACTORY.settableStaticField("theFactory", CONTEXT_FACTORY.name()));
        public static final Optional<FieldName> NULL_CONTEXTS = onlyIn2(CONTEXT_FACTORY.staticField("nullContextMap", MAP));
        public static final Optional<FieldName> JVM_METRICS = onlyIn2(new ClassName("org.apache.hadoop.metrics.jvm.JvmMetrics")
                .settableStaticField("theInstance", "org.apache.hadoop.metrics.jvm.JvmMetrics"));
    }

    public static final class ClassRegistries {
        private static final ClassName RECORD_FACTORY =
                new ClassName("org.apache.hadoop.yarn.factories.impl.pb.RecordFactoryPBImpl");
        private static final ClassName RPC_CLIENT_FACTORY =
                new ClassName("org.apache.hadoop.yarn.factories.impl.pb.RpcClientFactoryPBImpl");
        private static final ClassName RPC_SERVER_FACTORY =
                new ClassName("org.apache.hadoop.yarn.factories.impl.pb.RpcServerFactoryPBImpl");
        private static final ClassName REFLECTION_UTILS = new ClassName("org.apache.hadoop.util.ReflectionUtils");
        private static final ClassName PARSER_NODE = new ClassName("org.apache.hadoop.mapred.join.Parser$Node");
        private static final ClassName LIB_PARSER_NODE = new ClassName("org.apache.hadoop.mapreduce.lib.join.Parser$Node");
        /** Static maps. */
        public static final List<FieldName> STATIC_REGISTRIES = List.of(
                new ClassName("org.apache.hadoop.io.WritableComparator").staticField("comparators", MAP),
                new ClassName("org.apache.hadoop.io.WritableFactories").staticField("CLASS_TO_FACTORY", MAP),
                new ClassName("org.apache.hadoop.io.WritableName").staticField("NAME_TO_CLASS", MAP),
                new ClassName("org.apache.hadoop.io.WritableName").staticField("CLASS_TO_NAME", MAP),
                new ClassName("org.apache.hadoop.ipc.RPC").staticField("PROTOCOL_ENGINES", MAP),
                IPC_SERVER.staticField("PROTOCOL_CACHE", MAP),
                PARSER_NODE.staticField("nodeCstrMap", MAP),
                PARSER_NODE.staticField("rrCstrMap", MAP),
                LIB_PARSER_NODE.staticField("nodeCstrMap", MAP),
                LIB_PARSER_NODE.staticField("rrCstrMap", MAP));
        /** Maps of YARN's record and RPC factory singletons: each the singleton's static field, then the map in it. */
        public static final List<List<FieldName>> FACTORY_REGISTRIES = List.of(
                List.of(RECORD_FACTORY.staticField("self", RECORD_FACTORY.name()), RECORD_FACTORY.field("cache", MAP)),
                List.of(RPC_CLIENT_FACTORY.staticField("self", RPC_CLIENT_FACTORY.name()),
                        RPC_CLIENT_FACTORY.field("cache", MAP)),
                List.of(RPC_SERVER_FACTORY.staticField("self", RPC_SERVER_FACTORY.name()),
                        RPC_SERVER_FACTORY.field("serviceCache", MAP)),
                List.of(RPC_SERVER_FACTORY.staticField("self", RPC_SERVER_FACTORY.name()),
                        RPC_SERVER_FACTORY.field("protoCache", MAP)));
        /** Caches. */
        public static final List<FieldName> CACHES = List.of(
                REFLECTION_UTILS.staticField("CONSTRUCTOR_CACHE", MAP),
                new ClassName("org.apache.hadoop.fs.AbstractFileSystem").staticField("CONSTRUCTOR_CACHE", MAP));
        public static final FieldName SERIAL_FACTORY = REFLECTION_UTILS.settableStaticField("serialFactory",
                "org.apache.hadoop.io.serializer.SerializationFactory");
    }

    public static final class CodecPoolReset {
        private static final ClassName CODEC_POOL = new ClassName("org.apache.hadoop.io.compress.CodecPool");
        public static final FieldName COMPRESSOR_POOL = CODEC_POOL.staticField("compressorPool", MAP);
        public static final FieldName DECOMPRESSOR_POOL = CODEC_POOL.staticField("decompressorPool", MAP);
        /** Guava's Cache: 2.x's own Guava, 3.x's shaded one. */
        private static final ClassName CACHE = new ClassName(
                in2Or3("", "org.apache.hadoop.thirdparty.") + "com.google.common.cache.Cache");
        public static final FieldName COMPRESSOR_COUNTS = CODEC_POOL.staticField("compressorCounts", CACHE.name());
        public static final FieldName DECOMPRESSOR_COUNTS = CODEC_POOL.staticField("decompressorCounts", CACHE.name());
        public static final MethodName INVALIDATE_ALL = CACHE.method("invalidateAll");
        /** 3.x: an instance field (nothing to reset). */
        public static final Optional<FieldName> BZIP2_SKIP = onlyIn2(
                new ClassName("org.apache.hadoop.io.compress.bzip2.CBZip2InputStream")
                .settableStaticField("skipDecompression", BOOLEAN));
    }

    public static final class IpcReset {
        private static final ClassName CLIENT_CACHE = new ClassName("org.apache.hadoop.ipc.ClientCache");
        private static final FieldName PROTOBUF_CLIENTS =
                new ClassName("org.apache.hadoop.ipc.ProtobufRpcEngine").staticField("CLIENTS", CLIENT_CACHE.name());
        private static final FieldName WRITABLE_CLIENTS =
                new ClassName("org.apache.hadoop.ipc.WritableRpcEngine").staticField("CLIENTS", CLIENT_CACHE.name());
        /**
         * The RPC engines' client caches; 3.x's protobuf clients (HDFS, YARN) are ProtobufRpcEngine2's.
         * A client kept across runs would send the next run's calls with its client id and call ids
         * from 0 again, which a NameNode's retry cache answers with the earlier run's results.
         */
        public static final List<FieldName> ENGINE_CLIENTS = in2Or3(List.of(PROTOBUF_CLIENTS, WRITABLE_CLIENTS),
                List.of(PROTOBUF_CLIENTS, new ClassName("org.apache.hadoop.ipc.ProtobufRpcEngine2")
                        .staticField("CLIENTS", CLIENT_CACHE.name()), WRITABLE_CLIENTS));
        public static final FieldName CACHED_CLIENTS = CLIENT_CACHE.field("clients", MAP);
        public static final FieldName CLIENT_RUNNING =
                new ClassName("org.apache.hadoop.ipc.Client").field("running", ATOMIC_BOOLEAN);
        public static final FieldName CALL_ID_COUNTER = new ClassName("org.apache.hadoop.ipc.Client")
                .staticField("callIdCounter", ATOMIC_INTEGER);
        public static final FieldName SIGNATURES =
                new ClassName("org.apache.hadoop.ipc.RpcClientUtil").staticField("signatureMap", MAP);
        public static final ClassName PROTOCOL_SIGNATURE = new ClassName("org.apache.hadoop.ipc.ProtocolSignature");
        public static final ClassName NET_UTILS = new ClassName("org.apache.hadoop.net.NetUtils");
        public static final FieldName HOST_TO_RESOLVED = NET_UTILS.staticField("hostToResolved", MAP);
        public static final FieldName CANONICAL_HOSTS = NET_UTILS.staticField("canonicalizedHostCache", MAP);
    }

    public static final class RunServers {
        public static final ClassName SERVER = IPC_SERVER;
        /** Server's threads, each with its field for the server it serves. */
        public static final List<FieldName> SERVER_THREADS = List.of(
                IPC_SERVER.nested("Listener").field("this$0", IPC_SERVER.name()),
                IPC_SERVER.nested("Responder").field("this$0", IPC_SERVER.name()),
                IPC_SERVER.nested("Handler").field("this$0", IPC_SERVER.name()));
        public static final FieldName WEB_APP_CONTEXT = GUICE_SERVLET_CONTEXT;
    }

    public static final class HadoopShutdownHooks {
        private static final ClassName MANAGER = new ClassName("org.apache.hadoop.util.ShutdownHookManager");
        public static final FieldName HOOKS = MANAGER.field("hooks", "java.util.Set");
        public static final FieldName SHUTDOWN_IN_PROGRESS = MANAGER.field("shutdownInProgress", ATOMIC_BOOLEAN);
        public static final MethodName HOOKS_IN_ORDER = MANAGER.method("getShutdownHooksInOrder");
    }

    public static final class MapReduceStatics {
        private static final String TASK_ATTEMPT_ID = "org.apache.hadoop.mapred.TaskAttemptID";
        public static final ClassName YARN_CHILD = new ClassName("org.apache.hadoop.mapred.YarnChild");
        public static final FieldName YARN_CHILD_TASK = YARN_CHILD.settableStaticField("taskid", TASK_ATTEMPT_ID);
        public static final ClassName TASK_LOG = new ClassName("org.apache.hadoop.mapred.TaskLog");
        public static final FieldName LOCAL_FS =
                TASK_LOG.settableStaticField("localFS", "org.apache.hadoop.fs.LocalFileSystem");
        public static final FieldName PREV_OUT_LENGTH = TASK_LOG.settableStaticField("prevOutLength", LONG);
        public static final FieldName PREV_ERR_LENGTH = TASK_LOG.settableStaticField("prevErrLength", LONG);
        public static final FieldName PREV_LOG_LENGTH = TASK_LOG.settableStaticField("prevLogLength", LONG);
        public static final FieldName CURRENT_TASK = TASK_LOG.settableStaticField("currentTaskid", TASK_ATTEMPT_ID);
        public static final ClassName TASK = new ClassName("org.apache.hadoop.mapred.Task");
        /** 3.x: gone (a parameter of the merge). */
        public static final Optional<FieldName> INCLUDE_FINAL_MERGE = onlyIn2(new ClassName("org.apache.hadoop.mapred.Merger")
                .settableStaticField("includeFinalMerge", BOOLEAN));
        /** 2.x: Counters' limits are settable copies of Limits' (3.x: final, from the node's configuration). */
        public static final Optional<ClassName> COUNTERS = onlyIn2(new ClassName("org.apache.hadoop.mapred.Counters"));
        /**
         * 3.x: Limits reads its limits once, from the first configuration it is given (YarnChild
         * gives the job's); forgotten after each run, so that each task reads its own job's.
         */
        public static final Optional<FieldName> LIMITS_INITED = onlyIn3(
                new ClassName("org.apache.hadoop.mapreduce.counters.Limits").settableStaticField("isInited", BOOLEAN));
        public static final FieldName SCHEMES = new ClassName("org.apache.hadoop.mapreduce.counters.FileSystemCounterGroup")
                .staticField("schemes", MAP);
        public static final FieldName AGGREGATOR_DESCRIPTORS =
                new ClassName("org.apache.hadoop.mapreduce.lib.aggregate.ValueAggregatorJobBase")
                        .settableStaticField("aggregatorDescriptorList", "java.util.ArrayList");
        public static final ClassName FETCHER = new ClassName("org.apache.hadoop.mapreduce.task.reduce.Fetcher");
        /** An int (2.x) or a final AtomicInteger (3.x). */
        public static final FieldName FETCHER_NEXT_ID =
                in2Or3(FETCHER.settableStaticField("nextId", INT), FETCHER.staticField("NEXT_ID", ATOMIC_INTEGER));
        public static final FieldName SSL_SHUFFLE = FETCHER.settableStaticField("sslShuffle", BOOLEAN);
        public static final FieldName SSL_FACTORY =
                FETCHER.settableStaticField("sslFactory", "org.apache.hadoop.security.ssl.SSLFactory");
        /**
         * 3.x: a final ThreadLocal (SHUFFLE_START), whose values belong to the run's threads,
         * which all end with it (a run's main thread is new): nothing to reset.
         */
        public static final Optional<FieldName> SHUFFLE_START =
                onlyIn2(new ClassName("org.apache.hadoop.mapreduce.task.reduce.ShuffleSchedulerImpl")
                .settableStaticField("shuffleStart", "java.lang.ThreadLocal"));
        public static final FieldName MAP_OUTPUT_ID = new ClassName("org.apache.hadoop.mapreduce.task.reduce.MapOutput")
                .staticField("ID", ATOMIC_INTEGER);
        public static final FieldName LOCAL_JOB_ID = new ClassName("org.apache.hadoop.mapred.LocalJobRunner")
                .settableStaticField("jobid", INT);
        public static final ClassName EXIT_UTIL = new ClassName("org.apache.hadoop.util.ExitUtil");
        public static final FieldName SYSTEM_EXIT_DISABLED = EXIT_UTIL.settableStaticField("systemExitDisabled", BOOLEAN);
        public static final FieldName SYSTEM_HALT_DISABLED = EXIT_UTIL.settableStaticField("systemHaltDisabled", BOOLEAN);
        /** The exception itself (2.x) or a final AtomicReference to it (3.x). */
        public static final FieldName FIRST_EXIT = in2Or3(
                EXIT_UTIL.settableStaticField("firstExitException", EXIT_UTIL.nested("ExitException").name()),
                EXIT_UTIL.staticField("FIRST_EXIT_EXCEPTION", ATOMIC_REFERENCE));
        public static final FieldName FIRST_HALT = in2Or3(
                EXIT_UTIL.settableStaticField("firstHaltException", EXIT_UTIL.nested("HaltException").name()),
                EXIT_UTIL.staticField("FIRST_HALT_EXCEPTION", ATOMIC_REFERENCE));
        public static final ClassName READAHEAD_POOL = new ClassName("org.apache.hadoop.io.ReadaheadPool");
        public static final FieldName READAHEAD_INSTANCE =
                READAHEAD_POOL.settableStaticField("instance", READAHEAD_POOL.name());
        public static final FieldName READAHEAD_WORKERS =
                READAHEAD_POOL.field("pool", "java.util.concurrent.ExecutorService");
        private static final ClassName MR_JOB_CONF_UTIL = new ClassName("org.apache.hadoop.mapreduce.util.MRJobConfUtil");
        /**
         * 3.x: the thresholds of the task progress an MRAppMaster logs, set once, from the first
         * configuration TaskAttemptListenerImpl gives (a new JVM's are unset: the defaults).
         */
        public static final Optional<List<FieldName>> PROGRESS_LOG_THRESHOLDS = onlyIn3(List.of(
                MR_JOB_CONF_UTIL.settableStaticField("progressMinDeltaThreshold", "java.lang.Double"),
                MR_JOB_CONF_UTIL.settableStaticField("progressMaxWaitDeltaTimeThreshold", "java.lang.Long")));
    }

    public static final class AppMasterStatics {
        private static final ClassName ATTEMPT =
                new ClassName("org.apache.hadoop.mapreduce.v2.app.job.impl.TaskAttemptImpl");
        private static final ClassName HTTP_CONFIG = new ClassName("org.apache.hadoop.http.HttpConfig");
        private static final ClassName WEB_APP_UTIL = new ClassName("org.apache.hadoop.mapreduce.v2.util.MRWebAppUtil");
        private static final ClassName RACK_RESOLVER = new ClassName("org.apache.hadoop.yarn.util.RackResolver");
        private static final String POLICY = "org.apache.hadoop.http.HttpConfig$Policy";
        /** 3.x: gone (HttpConfig keeps no policy). */
        public static final Optional<FieldName> HTTP_POLICY = onlyIn2(HTTP_CONFIG.settableStaticField("policy", POLICY));
        public static final FieldName POLICY_IN_YARN = WEB_APP_UTIL.settableStaticField("httpPolicyInYarn", POLICY);
        public static final FieldName POLICY_IN_JHS = WEB_APP_UTIL.settableStaticField("httpPolicyInJHS", POLICY);
        public static final FieldName CONTAINER_SPEC_LOCK = ATTEMPT.staticField("commonContainerSpecLock", OBJECT);
        public static final FieldName CONTAINER_SPEC = ATTEMPT.settableStaticField("commonContainerSpec",
                "org.apache.hadoop.yarn.api.records.ContainerLaunchContext");
        public static final FieldName CLASSPATH_LOCK = ATTEMPT.staticField("classpathLock", OBJECT);
        public static final FieldName CLASSPATH_FLAG = ATTEMPT.staticField("initialClasspathFlag", ATOMIC_BOOLEAN);
        public static final FieldName CLASSPATH = ATTEMPT.settableStaticField("initialClasspath", STRING);
        public static final FieldName APP_CLASSPATH = ATTEMPT.settableStaticField("initialAppClasspath", STRING);
        public static final FieldName EMPTY_COUNTERS =
                ATTEMPT.staticField("EMPTY_COUNTERS", "org.apache.hadoop.mapreduce.Counters");
        public static final MethodName NEW_COUNTERS = new ClassName("org.apache.hadoop.mapreduce.Counters").constructor();
        public static final FieldName HISTORY_FILES =
                new ClassName("org.apache.hadoop.mapreduce.jobhistory.JobHistoryEventHandler")
                .staticField("fileMap", MAP);
        private static final ClassName NM_TOKEN_CACHE_CLASS = new ClassName("org.apache.hadoop.yarn.client.api.NMTokenCache");
        /** Static (2.x), or a method of the singleton NM_TOKEN_CACHE (3.x). */
        public static final MethodName CLEAR_NM_TOKENS = in2Or3(NM_TOKEN_CACHE_CLASS.staticMethod("clearCache"),
                NM_TOKEN_CACHE_CLASS.method("clearCache"));
        public static final Optional<FieldName> NM_TOKEN_CACHE =
                onlyIn3(NM_TOKEN_CACHE_CLASS.staticField("NM_TOKEN_CACHE", NM_TOKEN_CACHE_CLASS.name()));
        /** 3.x: main sets it (a new JVM's is false until then); an MRAppMaster not started by main reads it. */
        public static final Optional<FieldName> MAIN_STARTED = onlyIn3(
                new ClassName("org.apache.hadoop.mapreduce.v2.app.MRAppMaster").settableStaticField("mainStarted", BOOLEAN));
        /** 3.x: each task type's container size, from the first job's configuration that asked. */
        public static final Optional<FieldName> RESOURCE_REQUESTS = onlyIn3(ATTEMPT.staticField("RESOURCE_REQUEST_CACHE", MAP));
        public static final FieldName RACK_RESOLVER_INIT = RACK_RESOLVER.settableStaticField("initCalled", BOOLEAN);
        public static final FieldName RACK_MAPPING = RACK_RESOLVER.settableStaticField("dnsToSwitchMapping",
                "org.apache.hadoop.net.DNSToSwitchMapping");
        public static final FieldName GLOBAL_LISTENERS = new ClassName("org.apache.hadoop.service.AbstractService")
                .staticField("globalListeners", "org.apache.hadoop.service.ServiceOperations$ServiceListeners");
        public static final MethodName RESET_LISTENERS =
                new ClassName("org.apache.hadoop.service.ServiceOperations$ServiceListeners")
                .method("reset");
        public static final MethodName GUICE_FILTER_RESET = GUICE_FILTER.staticMethod("reset");
        public static final FieldName WEB_APP_CONTEXT = GUICE_SERVLET_CONTEXT;
    }

    /** The main classes of the java command that the executor finds in a container's launch script. */
    public static final class LaunchScriptRewriter {
        public static final ClassName YARN_CHILD = new ClassName("org.apache.hadoop.mapred.YarnChild");
        public static final ClassName MR_APP_MASTER = new ClassName("org.apache.hadoop.mapreduce.v2.app.MRAppMaster");
    }

    public static final class ShuffleContexts {
        public static final FieldName TASK_STATUS = new ClassName("org.apache.hadoop.mapred.Task")
                .field("taskStatus", "org.apache.hadoop.mapred.TaskStatus");
        private static final String COUNTER = "org.apache.hadoop.mapred.Counters$Counter";
        private static final List<String> CONTEXT_2 = List.of("org.apache.hadoop.mapreduce.TaskAttemptID",
                "org.apache.hadoop.mapred.JobConf", "org.apache.hadoop.fs.FileSystem", "org.apache.hadoop.mapred.TaskUmbilicalProtocol",
                "org.apache.hadoop.fs.LocalDirAllocator", "org.apache.hadoop.mapred.Reporter",
                "org.apache.hadoop.io.compress.CompressionCodec", "java.lang.Class", "org.apache.hadoop.mapred.Task$CombineOutputCollector",
                COUNTER, COUNTER, COUNTER, COUNTER, COUNTER, COUNTER, "org.apache.hadoop.mapred.TaskStatus",
                "org.apache.hadoop.util.Progress", "org.apache.hadoop.util.Progress", "org.apache.hadoop.mapred.Task",
                "org.apache.hadoop.mapred.MapOutputFile");
        /**
         * The plug-in's context's only constructor: 3.x's takes one more parameter, the map files of
         * an uber or local job's reducer (none for a reducer that fetches).
         */
        public static final Overloads CONTEXT = new Overloads(new ClassName("org.apache.hadoop.mapred.ShuffleConsumerPlugin$Context"),
                MethodName.CONSTRUCTOR, List.of(in2Or3(CONTEXT_2, followedBy(CONTEXT_2, "java.util.Map"))));
        /**
         * 3.x's umbilical answers a status update with an AMFeedback (2.2: a boolean), whose
         * taskFound false makes the task exit its JVM ("Parent died").
         */
        public static final Optional<FieldName> FEEDBACK_TASK_FOUND = onlyIn3(
                new ClassName("org.apache.hadoop.mapred.AMFeedback").settableField("taskFound", BOOLEAN));
    }

    /**
     * The RPC engine method that the launch counters' engines override to wrap the umbilical's
     * proxy (2.2's org.jvmreuse.hadoop.counters.TaskLaunchCountingEngine, 3.x's
     * org.jvmreuse.hadoop3.counters.TaskLaunchCountingEngine): every overload, so that RPC calls
     * none the engine passes by (3.x's RPC calls the 10-argument one).
     */
    public static final class TaskLaunchCountingEngine {
        private static final List<String> BY_ADDRESS = List.of("java.lang.Class", "long", "java.net.InetSocketAddress",
                "org.apache.hadoop.security.UserGroupInformation", "org.apache.hadoop.conf.Configuration",
                "javax.net.SocketFactory", "int", "org.apache.hadoop.io.retry.RetryPolicy");
        private static final List<String> BY_ADDRESS_3 = followedBy(BY_ADDRESS, ATOMIC_BOOLEAN, "org.apache.hadoop.ipc.AlignmentContext");
        private static final List<String> BY_CONNECTION_3 = List.of("java.lang.Class", "long",
                "org.apache.hadoop.ipc.Client$ConnectionId", "org.apache.hadoop.conf.Configuration",
                "javax.net.SocketFactory", "org.apache.hadoop.ipc.AlignmentContext");
        public static final Overloads GET_PROXY = new Overloads(new ClassName("org.apache.hadoop.ipc.RpcEngine"), "getProxy",
                in2Or3(List.of(BY_ADDRESS), List.of(BY_ADDRESS, BY_ADDRESS_3, BY_CONNECTION_3)));
    }
}
