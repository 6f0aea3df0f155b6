package org.jvmreuse.pool.slot;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URL;
import java.net.URLConnection;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Predicate;

/**
 * The class names a run must take from its shared library even when its own class path entries
 * come first ({@link TaskClassLoader}), declared by the library in the resource {@value #RESOURCE}:
 * one name a line, a name ending in '.' a package and its subpackages (Hadoop's
 * {@code mapreduce.job.classloader.system.classes} syntax, without exclusions). These are the
 * classes the run and the slot's library hand each other (Hadoop's API): a run's own copy would
 * be another class. A library that declares none keeps none.
 */
final class SharedPackages implements Predicate<String> {
    static final String RESOURCE = "META-INF/jvmreuse/shared-packages";
    static final SharedPackages NONE = new SharedPackages(List.of());

    private final List<String> names;

    SharedPackages(List<String> names) {
        this.names = List.copyOf(names);
    }

    static SharedPackages of(ClassLoader shared) throws IOException {
        List<String> names = new ArrayList<>();
        for (URL list : Collections.list(shared.getResources(RESOURCE))) {
            // Not through the JDK's jar cache: a jar rebuilt since it was cached would read as corrupt.
            URLConnection connection = list.openConnection();
            connection.setUseCaches(false);
            try (BufferedReader in = new BufferedReader(new InputStreamReader(connection.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = in.readLine()) != null; ) {
                    String name = line.replaceFirst("#.*", "").strip();
                    if (!name.isEmpty()) {
                        names.add(name);
                    }
                }
            }
        }
        return new SharedPackages(names);
    }

    @Override
    public boolean test(String className) {
        for (String name : names) {
            if (name.endsWith(".") ? className.startsWith(name) : className.equals(name)) {
                return true;
            }
        }
        return false;
    }
}
