package org.jvmreuse.it.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 28: benchmarks and test stand-ins stay out of the production jars. Benchmark programs
 * live in the benchmarks module (job-scripts/bench/ puts its jar beside the ones it measures),
 * fakes in the test trees. Reads every class of each module's jars ({@code target/MODULE-*.jar},
 * the pool's boot and launcher jars too) and fails on a class whose simple name, or a nested
 * class's, ends in {@code Bench}, {@code Benchmark} or {@code Bandwidth} or starts with
 * {@code InProcess}, {@code Fake} or {@code Mock}, or on a package named {@code bench} or
 * {@code benchmark(s)}, saying which jar holds it. A class that does what such a name says in
 * production gets the name of what it does there (the warm-up's {@code LoopbackPeers}).
 */
class BenchmarksOutOfMainTest {
    private static final Path REPO = Path.of(System.getProperty("jvmreuse.repo", "."));
    private static final Pattern CLASS = Pattern.compile("\\w*(Bench|Benchmark|Bandwidth)|(InProcess|Fake|Mock)\\w*");
    private static final Pattern PACKAGE = Pattern.compile("bench|benchmarks?");

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"pool-manager", "hadoop-patch", "mpi-shuffle", "workloads"})
    void theModulesJarsHoldNoBenchmarkAndNoFake(String module) throws IOException {
        List<Path> jars = jars(module);
        assertFalse(jars.isEmpty(), module + "/target has no " + module + "-*.jar: is the reactor packaged?");
        List<String> found = new ArrayList<>();
        int classes = 0;
        for (Path jar : jars) {
            try (ZipFile zip = new ZipFile(jar.toFile())) {
                for (ZipEntry entry : zip.stream().toList()) {
                    String name = entry.getName();
                    if (!name.endsWith(".class") || name.startsWith("META-INF/") || name.endsWith("module-info.class")) {
                        continue;
                    }
                    classes++;
                    String why = why(name.substring(0, name.length() - ".class".length()));
                    if (why != null) {
                        found.add(name + " in " + jar.getFileName() + ": " + why);
                    }
                }
            }
        }
        assertTrue(classes > 0, "no classes in " + jars);
        assertEquals(List.of(), found, module + "'s jars hold benchmarks or fakes (benchmarks go to the benchmarks"
                + " module, fakes to src/test)");
    }

    /** The module's own jars in its target dir (not sources, tests or javadoc; not target/lib's). */
    private static List<Path> jars(String module) throws IOException {
        Path target = REPO.resolve(module).resolve("target");
        if (!Files.isDirectory(target)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(target)) {
            return files.filter(f -> {
                String n = f.getFileName().toString();
                return n.startsWith(module + "-") && n.endsWith(".jar")
                        && !n.endsWith("-sources.jar") && !n.endsWith("-tests.jar") && !n.endsWith("-javadoc.jar");
            }).sorted().toList();
        }
    }

    /** Why the class (a path in a jar, without .class) is a benchmark or a fake, or null. */
    static String why(String path) {
        int slash = path.lastIndexOf('/');
        for (String pkg : path.substring(0, Math.max(slash, 0)).split("/")) {
            if (PACKAGE.matcher(pkg).matches()) {
                return "package " + pkg;
            }
        }
        for (String simple : path.substring(slash + 1).split("\\$")) {
            if (CLASS.matcher(simple).matches()) {
                return "class " + simple;
            }
        }
        return null;
    }
}
