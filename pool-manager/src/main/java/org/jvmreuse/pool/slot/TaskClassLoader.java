package org.jvmreuse.pool.slot;

import java.io.File;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A class loader over class path entries, following {@code java}'s rules: {@code dir/*} means
 * the jars in dir; entries that do not exist are skipped. A run gets a new one for its own
 * entries every time, so the program's classes and statics start fresh while the JDK's stay
 * loaded and compiled; its parent is the platform loader (the program sees the JDK, none of the
 * pool's classes) or the slot's cached loader of the run's shared entries.
 */
public final class TaskClassLoader extends URLClassLoader {
    static {
        registerAsParallelCapable();
    }

    public TaskClassLoader(List<String> classPath, ClassLoader parent) {
        super(urls(classPath), parent);
    }

    private static URL[] urls(List<String> classPath) {
        List<URL> urls = new ArrayList<>();
        for (String entry : classPath) {
            if (entry.endsWith("/*") || entry.equals("*")) {
                File dir = new File(entry.substring(0, entry.length() - 1));
                File[] jars = dir.listFiles((d, name) -> name.endsWith(".jar") || name.endsWith(".JAR"));
                if (jars != null) {
                    Arrays.sort(jars);
                    for (File jar : jars) {
                        urls.add(url(jar));
                    }
                }
            } else {
                urls.add(url(new File(entry)));
            }
        }
        return urls.toArray(new URL[0]);
    }

    private static URL url(File file) {
        try {
            return file.toURI().toURL();
        } catch (MalformedURLException e) {
            throw new IllegalArgumentException("bad class path entry " + file, e);
        }
    }
}
