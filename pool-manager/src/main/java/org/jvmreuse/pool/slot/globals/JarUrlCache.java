package org.jvmreuse.pool.slot.globals;

import java.io.IOException;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.jar.JarFile;
import org.jvmreuse.pool.jdk.JdkInternals;

/**
 * The JDK's cache of jar files opened through {@code jar:} URLs ({@code URL.openStream},
 * {@code Class.getResource(...).openStream()}, an XML parser given a resource's URL): it keeps
 * each jar open for the life of the JVM, so a later run would read a jar as an earlier run found
 * it, not as it is now on disk (a rebuilt jar at the same path), and every run's jars would stay
 * open. The jars a run had cached are taken out and closed after it, as a new JVM's exit does.
 */
final class JarUrlCache implements GlobalState {
    private static final String CLASS = "sun.net.www.protocol.jar.JarFileFactory";
    private final Object factory = JdkInternals.get(JdkInternals.field(CLASS, "instance"), null);
    @SuppressWarnings("unchecked")
    private final Map<String, JarFile> files = (Map<String, JarFile>) JdkInternals.get(JdkInternals.field(CLASS, "fileCache"), null);
    @SuppressWarnings("unchecked")
    private final Map<JarFile, ?> urls = (Map<JarFile, ?>) JdkInternals.get(JdkInternals.field(CLASS, "urlCache"), null);

    @Override
    public String name() {
        return "jar: URL cache";
    }

    @Override
    public Snapshot capture() {
        Set<String> before;
        synchronized (factory) {
            before = new HashSet<>(files.keySet());
        }
        return runLoader -> {
            List<JarFile> added = new ArrayList<>();
            synchronized (factory) {
                for (var entries = files.entrySet().iterator(); entries.hasNext();) {
                    Map.Entry<String, JarFile> entry = entries.next();
                    if (!before.contains(entry.getKey())) {
                        added.add(entry.getValue());
                        urls.remove(entry.getValue());
                        entries.remove();
                    }
                }
            }
            for (JarFile jar : added) {
                try {
                    jar.close();
                } catch (IOException e) {
                    return "cannot close " + jar.getName() + ": " + e;
                }
            }
            return null;
        };
    }
}
