package org.jvmreuse.pool.slot;

import java.io.File;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.jvmreuse.pool.admission.StartProperties;
import org.jvmreuse.pool.protocol.RunSpec;

/**
 * A run's system properties, a fresh {@code Properties} object as a new JVM's would be, and the
 * {@code java.io.tmpdir} they name ({@link TempDirectory}); the slot's own afterwards.
 */
final class RunProperties implements RunStep {
    private final Properties slotProperties = System.getProperties();
    private final Map<Object, Object> baseline = Map.copyOf(slotProperties);
    private final Map<String, String> startProperties = StartProperties.of(slotProperties);
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
        return readOnceChange(ran);
    }

    /**
     * A property the JDK reads once per JVM (admission's {@link StartProperties}: the IP stack, the
     * default TLS key and trust stores, the {@code sun.net} defaults, ...) that the run set or
     * cleared in its code: if the JDK first read it during the run, the run's value is the JVM's
     * for good (the default TLS managers are made from the stores' properties of their first use
     * and kept), and the slot cannot tell whether it did. What the slot cannot put back retires
     * it. A run's {@code -D} of one never gets here: admission sends it to a new JVM.
     */
    private String readOnceChange(Properties ran) {
        Set<String> changed = StartProperties.changedBy(ran, startProperties);
        return changed.isEmpty() ? null : "the run changed " + String.join(", ", changed)
                + ", which the JDK reads once per JVM, and may have made the run's value the slot's for good";
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
