package org.jvmreuse.hadoop.audit;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarFile;

/**
 * Finds the mutable static fields ("class#field") of a set of classes, for the audits that each
 * is reset after a run or named harmless (hadoop-patch's AppMasterStaticsAuditTest on Hadoop 2.2,
 * hadoop3-patch's on 3.x; this class reaches hadoop3-patch in hadoop-patch's test jar). Mutable:
 * not final, or final of a type not known to be immutable (collections, arrays, atomics,
 * ThreadLocals, Hadoop records and anything else). Loggers do not count, final or not: nothing
 * reassigns one, and the logging configuration is reset per run.
 */
public final class MutableStatics {
    private final Set<Class<?>> immutable;
    private final Set<Class<?>> loggers;

    /** {@code immutable}: types whose instances (and subclasses') cannot change; {@code loggers}: logger types. */
    public MutableStatics(Set<Class<?>> immutable, Set<Class<?>> loggers) {
        this.immutable = immutable;
        this.loggers = loggers;
    }

    /**
     * The mutable statics of every class in the jar of {@code wholeJar}, and of the classes of the
     * jars of {@code jars} (each named by a class in it) in {@code packages} (with their
     * subpackages), looked up in the loader of this class without being initialised.
     */
    public Set<String> in(Class<?> wholeJar, List<Class<?>> jars, List<String> packages)
            throws IOException, URISyntaxException, ClassNotFoundException {
        Set<String> found = new TreeSet<>();
        for (String name : classes(wholeJar, jars, packages)) {
            Class<?> c = Class.forName(name, false, MutableStatics.class.getClassLoader());
            for (Field f : c.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers()) && !f.isSynthetic() && !f.isEnumConstant() && mutable(f)) {
                    found.add(c.getName() + "#" + f.getName());
                }
            }
        }
        return found;
    }

    /** Of {@code found}, those in neither classification. */
    public static Set<String> unclassified(Set<String> found, Map<String, String> reset, Map<String, String> harmless) {
        Set<String> left = new TreeSet<>(found);
        left.removeAll(reset.keySet());
        left.removeAll(harmless.keySet());
        return left;
    }

    /** Of the classified fields, those not in {@code found}: gone, or no longer mutable. */
    public static Set<String> stale(Set<String> found, Map<String, String> reset, Map<String, String> harmless) {
        Set<String> listed = new TreeSet<>(reset.keySet());
        listed.addAll(harmless.keySet());
        listed.removeAll(found);
        return listed;
    }

    private boolean mutable(Field f) {
        Class<?> type = f.getType();
        if (loggers.contains(type)) {
            return false;
        }
        if (!Modifier.isFinal(f.getModifiers())) {
            return true;
        }
        return !type.isPrimitive() && !type.isEnum() && immutable.stream().noneMatch(i -> i.isAssignableFrom(type));
    }

    private static List<String> classes(Class<?> wholeJar, List<Class<?>> jars, List<String> packages)
            throws IOException, URISyntaxException {
        Path whole = jarOf(wholeJar);
        List<String> names = new ArrayList<>();
        Set<Path> seen = new TreeSet<>();
        List<Class<?>> all = new ArrayList<>(List.of(wholeJar));
        all.addAll(jars);
        for (Class<?> member : all) {
            Path jar = jarOf(member);
            if (!seen.add(jar)) {
                continue;
            }
            try (JarFile file = new JarFile(jar.toFile())) {
                file.stream().map(e -> e.getName()).filter(n -> n.endsWith(".class") && !n.endsWith("module-info.class"))
                        .map(n -> n.substring(0, n.length() - ".class".length()).replace('/', '.'))
                        .filter(n -> jar.equals(whole) || packages.stream().anyMatch(n::startsWith))
                        .forEach(names::add);
            }
        }
        return names;
    }

    private static Path jarOf(Class<?> c) throws URISyntaxException {
        return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
    }
}
