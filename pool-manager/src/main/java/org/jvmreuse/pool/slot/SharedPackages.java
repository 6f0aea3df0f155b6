package org.jvmreuse.pool.slot;

import java.io.IOException;
import java.net.URL;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Predicate;
import org.jvmreuse.pool.classpath.TaskClassLoader;

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
            names.addAll(NameListResource.read(list));
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
