package org.jvmreuse.pool.classpath;

import java.io.File;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * A class loader over class path entries, following {@code java}'s rules: {@code dir/*} means
 * the jars in dir; entries that do not exist are skipped. A run gets a new one for its own
 * entries every time, so the program's classes and statics start fresh while the JDK's stay
 * loaded and compiled; its parent is the platform loader (the program sees the JDK, none of the
 * pool's classes) or the slot's cached loader of the run's shared entries.
 *
 * <p>Delegation is parent first, except for the run's entries that its class path lists before
 * the shared ones (a Hadoop task with {@code mapreduce.job.user.classpath.first}: {@code $PWD},
 * the job jar, its {@code lib/*}): as in one JVM with that class path, a class or resource found
 * there wins over the shared library's, after the JDK's own. Names the shared library must keep
 * ({@code slot.SharedPackages}, Hadoop's API) still come from it: a second copy beside the one the
 * slot's library uses would not be the same class.
 *
 * <p>A run's loader finds native libraries on the run's {@code java.library.path} (the JDK reads
 * the property only once per process); the slot's shared loaders keep the JDK's search.
 */
public final class TaskClassLoader extends URLClassLoader {
    private static final ClassLoader PLATFORM = ClassLoader.getPlatformClassLoader();
    /** Packages of the JDK's modules: those classes come from the JDK, as in any JVM. */
    private static final Set<String> JDK_PACKAGES = jdkPackages();

    static {
        registerAsParallelCapable();
    }

    /** Finds (never defines) what the entries before the parent hold; null: plain parent first. */
    private final URLClassLoader first;
    private final Predicate<String> parentOnly;

    private final boolean runLibraryPath;

    /** A parent-first loader that leaves native libraries to the JDK's search (the slot's shared loaders). */
    public TaskClassLoader(List<String> classPath, ClassLoader parent) {
        this(new URL[0], urls(classPath), parent, name -> true, false);
    }

    /**
     * A run's own loader of {@code first} then {@code rest} whose {@code first} entries come before
     * {@code parent}, except for JDK classes and class names {@code parentOnly} accepts; its native
     * libraries come from the run's {@code java.library.path}.
     */
    public static TaskClassLoader forRun(List<String> first, List<String> rest, ClassLoader parent, Predicate<String> parentOnly) {
        return new TaskClassLoader(urls(first), urls(rest), parent, parentOnly, true);
    }

    private TaskClassLoader(URL[] first, URL[] rest, ClassLoader parent, Predicate<String> parentOnly, boolean runLibraryPath) {
        super(concat(first, rest), parent);
        // A lookup in the first entries alone: a class there is then defined by this loader, whose
        // own list starts with them. A run without such entries pays nothing.
        this.first = first.length == 0 ? null : new URLClassLoader(first, null);
        this.parentOnly = parentOnly;
        this.runLibraryPath = runLibraryPath;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (first == null || isJdkClass(name) || parentOnly.test(name)) {
            return super.loadClass(name, resolve);
        }
        synchronized (getClassLoadingLock(name)) {
            Class<?> c = findLoadedClass(name);
            if (c == null && first.findResource(name.replace('.', '/') + ".class") != null) {
                c = findClass(name);
            }
            if (c == null) {
                return super.loadClass(name, resolve);
            }
            if (resolve) {
                resolveClass(c);
            }
            return c;
        }
    }

    @Override
    public URL getResource(String name) {
        if (first == null || parentOnly.test(name.replace('/', '.'))) {
            return super.getResource(name);
        }
        URL found = PLATFORM.getResource(name);
        if (found == null) {
            found = first.findResource(name);
        }
        return found != null ? found : super.getResource(name);
    }

    @Override
    public Enumeration<URL> getResources(String name) throws IOException {
        if (first == null || parentOnly.test(name.replace('/', '.'))) {
            return super.getResources(name);
        }
        // The class path's order: the JDK's, the first entries', the parent's, the other own entries'.
        Set<URL> all = new LinkedHashSet<>(Collections.list(PLATFORM.getResources(name)));
        Set<String> early = new HashSet<>();
        for (URL url : Collections.list(first.findResources(name))) {
            all.add(url);
            early.add(url.toString());
        }
        all.addAll(Collections.list(getParent().getResources(name)));
        for (URL url : Collections.list(findResources(name))) {
            if (!early.contains(url.toString())) {
                all.add(url);
            }
        }
        return Collections.enumeration(all);
    }

    @Override
    public void close() throws IOException {
        try {
            if (first != null) {
                first.close();
            }
        } finally {
            super.close();
        }
    }

    private static boolean isJdkClass(String name) {
        int dot = name.lastIndexOf('.');
        return dot >= 0 && JDK_PACKAGES.contains(name.substring(0, dot));
    }

    private static Set<String> jdkPackages() {
        Set<String> packages = new HashSet<>();
        for (Module module : ModuleLayer.boot().modules()) {
            packages.addAll(module.getPackages());
        }
        return Set.copyOf(packages);
    }

    private static URL[] concat(URL[] first, URL[] rest) {
        URL[] all = Arrays.copyOf(first, first.length + rest.length);
        System.arraycopy(rest, 0, all, first.length, rest.length);
        return all;
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
