package org.jvmreuse.it.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;

/** The references between a module's packages, from the JDK's {@code jdeps} over its compiled classes. */
final class PackageEdges {
    private static final Pattern EDGE = Pattern.compile("^\\s+(org\\.jvmreuse\\.[\\w.$]+)\\s+->\\s+(org\\.jvmreuse\\.[\\w.$]+)\\s");

    private PackageEdges() {
    }

    /** Package -> package it references -> the class pairs that make the reference. */
    static Map<String, Map<String, Set<String>>> of(Path classes) {
        ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow(() -> new AssertionError("this JDK has no jdeps"));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = jdeps.run(new PrintWriter(out), new PrintWriter(err), "-verbose:class", "-e", "org\\.jvmreuse\\..*",
                classes.toString());
        assertEquals(0, code, "jdeps failed: " + err);
        Map<String, Map<String, Set<String>>> edges = new TreeMap<>();
        for (String line : out.toString().split("\n")) {
            Matcher m = EDGE.matcher(line);
            if (m.find()) {
                String from = topLevel(m.group(1));
                String to = topLevel(m.group(2));
                String fromPackage = packageOf(from);
                String toPackage = packageOf(to);
                if (!fromPackage.equals(toPackage)) {
                    edges.computeIfAbsent(fromPackage, k -> new TreeMap<>())
                            .computeIfAbsent(toPackage, k -> new TreeSet<>())
                            .add(simple(from) + " -> " + simple(to));
                }
            }
        }
        return edges;
    }

    private static String topLevel(String className) {
        int dollar = className.indexOf('$');
        return dollar < 0 ? className : className.substring(0, dollar);
    }

    private static String packageOf(String className) {
        return className.substring(0, className.lastIndexOf('.'));
    }

    private static String simple(String className) {
        return className.substring(className.lastIndexOf('.') + 1);
    }
}
