package org.jvmreuse.pool.slot;

import java.io.File;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.jvmreuse.pool.protocol.RunSpec;

/**
 * A run's system properties, a fresh {@code Properties} object as a new JVM's would be, and the
 * {@code java.io.tmpdir} they name ({@link TempDirectory}); the slot's own afterwards.
 */
final class RunProperties implements RunStep {
    private final Properties slotProperties = System.getProperties();
    private final Map<Object, Object> baseline = Map.copyOf(slotProperties);
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
        System.setProperties(slotProperties);
        tempDirectory.restore();
        return null;
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
