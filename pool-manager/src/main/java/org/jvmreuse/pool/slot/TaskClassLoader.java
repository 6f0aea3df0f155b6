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
 * pool's classes) or the slot's cached loader of the run's shared entries. A run's loader finds
 * native libraries on the run's {@code java.library.path} (the JDK reads the property only once
 * per process); the slot's shared loaders keep the JDK's search.
 */
public final class TaskClassLoader extends URLClassLoader {
    static {
        registerAsParallelCapable();
    }

    private final boolean runLibraryPath;

    private TaskClassLoader(List<String> classPath, ClassLoader parent, boolean runLibraryPath) {
        super(urls(classPath), parent);
        this.runLibraryPath = runLibraryPath;
    }

    /** A loader that leaves native libraries to the JDK's search (the slot's shared loaders). */
    public TaskClassLoader(List<String> classPath, ClassLoader parent) {
        this(classPath, parent, false);
    }

    /** A run's own loader, whose native libraries come from the run's {@code java.library.path}. */
    public static TaskClassLoader forRun(List<String> classPath, ClassLoader parent) {
        return new TaskClassLoader(classPath, parent, true);
    }

    /**
     * As {@code java} searches: the JDK's own libraries first (left to the JDK: null), then the
     * directories of {@code java.library.path}, an empty entry meaning the working directory.
     */
    @Override
    protected String findLibrary(String name) {
        if (!runLibraryPath) {
            return null;
        }
        String file = System.mapLibraryName(name);
        if (findIn(System.getProperty("sun.boot.library.path", ""), file) != null) {
            return null;
        }
        return findIn(System.getProperty("java.library.path", ""), file);
    }

    private static String findIn(String path, String file) {
        for (String dir : path.split(File.pathSeparator, -1)) {
            File candidate = new File(dir.isEmpty() ? "." : dir, file);
            if (candidate.isFile()) {
                return candidate.getAbsolutePath();
            }
        }
        return null;
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
