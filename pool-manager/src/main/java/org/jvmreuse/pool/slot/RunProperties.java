package org.jvmreuse.pool.slot;

import java.io.File;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import org.jvmreuse.pool.protocol.RunSpec;

/**
 * A run's system properties, a fresh {@code Properties} object as a new JVM's would be, and the
 * {@code java.io.tmpdir} they name ({@link TempDirectory}); the slot's own afterwards.
 */
final class RunProperties implements RunStep {
    private final Properties slotProperties = System.getProperties();
    private final Map<Object, Object> baseline = Map.copyOf(slotProperties);
    private final Map<String, Object> baselineTlsStores = tlsStores(baseline);
    private final LibraryPathDefault libraryPath = new LibraryPathDefault(System.getProperty("java.library.path", ""),
            System.getenv("LD_LIBRARY_PATH"));
    private final TempDirectory tempDirectory = new TempDirectory();

    @Override
    public void lend(RunStart run) {
        System.setProperties(forRun(run.spec));
        tempDirectory.use(System.getProperty("java.io.tmpdir"));
    }

    @Override
    public String restore(RunEnd end) {
        Properties ran = System.getProperties();
        System.setProperties(slotProperties);
        tempDirectory.restore();
        return tlsStoreChange(ran);
    }

    /**
     * The JDK's default TLS key and trust managers (those of {@code SSLContext.getDefault()}) are
     * made once per JVM, on first use, from the {@code javax.net.ssl.keyStore*} and
     * {@code trustStore*} properties of that moment, and kept: a run that set one may have had its
     * store made the JVM's for good (a {@code -D} of them goes to a new JVM: admission's
     * StartProperties). What the slot cannot put back retires it.
     */
    private String tlsStoreChange(Properties ran) {
        Map<String, Object> after = tlsStores(ran);
        Set<String> changed = new TreeSet<>(baselineTlsStores.keySet());
        changed.addAll(after.keySet());
        changed.removeIf(name -> Objects.equals(baselineTlsStores.get(name), after.get(name)));
        return changed.isEmpty() ? null : "the run changed " + String.join(", ", changed)
                + ", which the JDK reads once per JVM for its default TLS key and trust managers";
    }

    private static Map<String, Object> tlsStores(Map<Object, Object> properties) {
        Map<String, Object> stores = new HashMap<>();
        properties.forEach((name, value) -> {
            if (name instanceof String key && (key.startsWith("javax.net.ssl.keyStore") || key.startsWith("javax.net.ssl.trustStore"))) {
                stores.put(key, value);
            }
        });
        return stores;
    }

    /** The JVM's own, then what {@code java} sets for the run's command line, then the run's {@code -D} values. */
    private Properties forRun(RunSpec spec) {
        Properties properties = new Properties();
        baseline.forEach((k, v) -> {
            if (!k.toString().startsWith("jvmreuse.")) {
                properties.put(k, v);
            }
        });
        Map<String, String> overrides = new HashMap<>();
        overrides.put("user.dir", spec.cwd());
        overrides.put("java.class.path", String.join(File.pathSeparator, spec.classPath()));
        overrides.put("sun.java.command", (spec.mainClass() + " " + String.join(" ", spec.args())).trim());
        overrides.put("java.library.path", libraryPath.forRun(spec.environment().get("LD_LIBRARY_PATH")));
        overrides.putAll(spec.properties());
        overrides.forEach(properties::setProperty);
        return properties;
    }
}
