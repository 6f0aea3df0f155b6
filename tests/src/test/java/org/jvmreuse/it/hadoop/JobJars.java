package org.jvmreuse.it.hadoop;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.jvmreuse.it.Pool;

/** Job jars for the Hadoop tests: the test jobs, with a Marker class of the caller's choosing. */
final class JobJars {
    private static final Path CLASSES = Pool.REPO.resolve("tests/target/test-classes");
    private static final String JOBS = "org/jvmreuse/it/hadoop/jobs/";

    private JobJars() {
    }

    /** A jar of the test jobs whose {@code Marker.describe()} returns {@code marker}. */
    static Path withMarker(Path dir, String marker) throws IOException {
        Path src = Files.createDirectories(dir.resolve("src-" + marker + "/" + JOBS));
        Files.writeString(src.resolve("Marker.java"), "package org.jvmreuse.it.hadoop.jobs;\n"
                + "public final class Marker { public static String describe() { return \"" + marker + "\"; } }\n");
        Path out = Files.createDirectories(dir.resolve("classes-" + marker));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        int rc = javac.run(null, null, null, "--release", "8", "-d", out.toString(), src.resolve("Marker.java").toString());
        if (rc != 0) {
            throw new IllegalStateException("cannot compile the Marker variant " + marker);
        }
        Path jar = dir.resolve("jobs-" + marker + ".jar");
        try (JarOutputStream jos = new JarOutputStream(Files.newOutputStream(jar))) {
            try (Stream<Path> files = Files.list(CLASSES.resolve(JOBS))) {
                for (Path f : files.filter(p -> !p.getFileName().toString().equals("Marker.class")).sorted().toList()) {
                    add(jos, JOBS + f.getFileName(), f);
                }
            }
            add(jos, JOBS + "Marker.class", out.resolve(JOBS + "Marker.class"));
        }
        return jar;
    }

    private static void add(JarOutputStream jos, String name, Path file) throws IOException {
        jos.putNextEntry(new JarEntry(name));
        Files.copy(file, jos); // leaves the jar stream open
        jos.closeEntry();
    }

    /** An input file of {@code lines} lines: one map task per line with NLineInputFormat. */
    static Path lines(Path dir, String name, int lines) throws IOException {
        Path file = Files.createDirectories(dir.resolve(name)).resolve("lines.txt");
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < lines; i++) {
            sb.append("line-").append(i).append('\n');
        }
        Files.writeString(file, sb);
        return file.getParent();
    }

    static List<String> main(String className) {
        return List.of("org.jvmreuse.it.hadoop.jobs." + className);
    }
}
