package org.jvmreuse.pool.admission;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * System properties the JDK acts on once per JVM, at its start or at first use (a static
 * initialiser, or a value cached on first use), so that a run's {@code -D} of one would be in its
 * {@code System.getProperties()} while the slot's JVM goes on as it was started or as an earlier
 * run made it: the IP stack ({@code java.net.preferIPv4Stack}, which Hadoop gives every task),
 * the system class loader, the security manager and properties, the seed source, locale providers
 * and codes, the selector, channel and zone rules providers, {@code Arrays}' legacy merge sort,
 * serialization's filter and limits, jar and zip settings, the common pool, name service caches
 * and the {@code jdk.net}/{@code sun.net}/{@code sun.nio.ch} network settings,
 * {@code HttpURLConnection}'s and the HTTP client's settings, the default TLS key and trust
 * stores ({@code javax.net.ssl.*}) and TLS settings, the security, TLS and Kerberos settings and
 * debug switches, the java.util.logging manager and configuration, the LDAP connection pool, RMI's
 * settings and the management agent's ({@code com.sun.management.*}, read as the JVM starts).
 * Found by reading the static initialisers of Java 17's and Java 25's modules for property reads.
 * A run is admitted only if it gives each of them as the slot's JVM was started with it, or leaves
 * it unset as the slot did; otherwise a new JVM runs it as asked. {@code line.separator} the JDK
 * sets itself (and fixes {@code System.lineSeparator()} with it as it starts): a run that leaves it
 * out gets what a new JVM on the same system would, one that gives it must give the slot's. After
 * a run, {@link #changedBy} names those its code changed.
 */
public final class StartProperties {
    // Not sun.nio.ch.bugLevel (Netty sets it as it loads) nor jceks.key.serialFilter (Hadoop 3's
    // KeyProvider does): a run that changes one of these in its code retires its slot (RunProperties).
    private static final Set<String> NAMES = Set.of("java.net.preferIPv4Stack", "java.net.preferIPv6Addresses",
            "java.system.class.loader", "java.security.manager", "java.security.properties", "java.security.egd",
            "java.locale.providers", "java.locale.useOldISOCodes", "java.nio.channels.spi.SelectorProvider",
            "java.nio.channels.spi.AsynchronousChannelProvider", "java.time.zone.DefaultZoneRulesProvider",
            "sun.timezone.ids.oldmapping", "java.util.PropertyResourceBundle.encoding", "java.util.Arrays.useLegacyMergeSort",
            "jdk.serialFilter", "jdk.serialFilterFactory", "jdk.serialSetFilterAfterRead", "jdk.serialProxyInterfaceLimit",
            "sun.io.serialization.extendedDebugInfo", "sun.io.useCanonCaches", "sun.io.useCanonPrefixCache",
            "jdk.util.jar.enableMultiRelease", "jdk.util.jar.version", "jdk.util.zip.inhibitZip64",
            "java.util.logging.config.file", "java.util.logging.config.class", "java.util.logging.manager",
            "sun.nio.ch.internalThreadPoolSize", "sun.nio.ch.maxCompletionHandlersOnStack", "sun.nio.ch.disableSynchronousRead",
            "http.keepAlive", "http.agent", "http.maxRedirects", "http.use.global.creds", "jdk.http.maxHeaderSize",
            "jdk.https.negotiate.cbt", "jdk.ntlm.cache", "jdk.spnego.cache", "java.net.useSystemProxies",
            "sun.nio.fs.DefaultFileSystemProvider", "java.util.prefs.syncInterval", "jdk.serialGetFieldCnfeReturnsNull",
            "jdk.crypto.KeyAgreement.legacyKDF", "jdk.epkcs8.defaultAlgorithm", "cert.provider.x509v1",
            "com.sun.jndi.ldapURLParsing", "jdk.jndi.ldap.mechsAllowedToSendCredentials", "javax.net.debug",
            "java.security.debug", "java.security.auth.debug");
    private static final List<String> PREFIXES = List.of("java.util.concurrent.ForkJoinPool.common.",
            "networkaddress.cache.", "sun.net.", "jdk.net.", "http.auth.", "jdk.http.auth.", "jdk.httpclient.",
            "jdk.internal.httpclient.", "javax.net.ssl.", "jdk.tls.", "jsse.", "com.sun.net.ssl.", "sun.security.ssl.",
            "jdk.security.", "sun.security.krb5.", "sun.security.jgss.", "sun.security.spnego.", "sun.misc.URLClassPath.",
            "http.KeepAlive.", "jdk.httpserver.", "sun.security.certpath.", "sun.security.nativegss.", "jdk.nio.file.",
            "com.sun.jndi.ldap.", "java.rmi.", "sun.rmi.", "com.sun.management.");
    private static final String SET_BY_THE_JDK = "line.separator";

    private StartProperties() {
    }

    static boolean readOnce(String name) {
        return NAMES.contains(name) || SET_BY_THE_JDK.equals(name) || PREFIXES.stream().anyMatch(name::startsWith);
    }

    /** Those of {@code properties} the JDK reads once, by name. */
    public static Map<String, String> of(Properties properties) {
        Map<String, String> chosen = new TreeMap<>();
        for (String name : properties.stringPropertyNames()) {
            if (readOnce(name)) {
                chosen.put(name, properties.getProperty(name));
            }
        }
        return chosen;
    }

    /** Refuses a run whose {@code -D}s ({@code run}) give one of them otherwise than the slot's JVM was started ({@code slot}). */
    static void check(Map<String, String> run, Map<String, String> slot) {
        TreeSet<String> names = new TreeSet<>(slot.keySet());
        run.keySet().stream().filter(StartProperties::readOnce).forEach(names::add);
        for (String name : names) {
            String given = run.get(name);
            String started = slot.get(name);
            if (Objects.equals(given, started) || given == null && SET_BY_THE_JDK.equals(name)) {
                continue;
            }
            throw new NotAdmitted(given == null
                    ? "the pool's JVMs were started with -D" + name + "=" + shown(started) + ", which the run does not give"
                            + " (the JDK reads it once, at start-up or first use; a new JVM runs without it)"
                    : "-D" + name + "=" + shown(given) + " is not what the pool's JVMs were started with ("
                            + (started == null ? "none" : shown(started)) + "), and the JDK reads it once, at start-up or first use");
        }
    }

    /**
     * Those of them that a run's code left otherwise than the slot's JVM was started with them
     * ({@code slot}, as {@link #of} gave them): set, changed or cleared in {@code ran}, the run's
     * properties as it ended. Not {@code line.separator}, which the JDK acts on only as it starts.
     */
    public static Set<String> changedBy(Properties ran, Map<String, String> slot) {
        Map<String, String> after = of(ran);
        Set<String> changed = new TreeSet<>(slot.keySet());
        changed.addAll(after.keySet());
        changed.removeIf(name -> Objects.equals(slot.get(name), after.get(name)) || SET_BY_THE_JDK.equals(name));
        return changed;
    }

    private static String shown(String value) {
        return value.replace("\r", "\\r").replace("\n", "\\n").replace("\t", "\\t");
    }
}
