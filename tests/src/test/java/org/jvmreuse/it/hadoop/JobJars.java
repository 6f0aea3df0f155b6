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
public final class JobJars {
    private static final Path CLASSES = Pool.REPO.resolve("tests/target/test-classes");
    private static final String JOBS = "org/jvmreuse/it/hadoop/jobs/";

    private JobJars() {
    }

    /** A jar of the test jobs whose {@code Marker.describe()} returns {@code marker}. */
    public static Path withMarker(Path dir, String marker) throws IOException {
        return withClass(dir, marker, "org.jvmreuse.it.hadoop.jobs.Marker",
                "public final class Marker { public static String describe() { return \"" + marker + "\"; } }");
    }

    /**
     * A jar of the test jobs plus (or instead of the jobs' own) class {@code className}, compiled
     * from {@code body} (its declaration, in its package): a job jar that bundles its own version
     * of a class. {@code tag} names the jar and its build directories.
     */
    static Path withClass(Path dir, String tag, String className, String body) throws IOException {
        int dot = className.lastIndexOf('.');
        String path = className.replace('.', '/');
        Path source = dir.resolve("src-" + tag + "/" + path + ".java");
        Files.createDirectories(source.getParent());
        Files.writeString(source, "package " + className.substring(0, dot) + ";\n" + body + "\n");
        Path out = Files.createDirectories(dir.resolve("classes-" + tag));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        int rc = javac.run(null, null, null, "--release", "8", "-d", out.toString(), source.toString());
        if (rc != 0) {
            throw new IllegalStateException("cannot compile " + className + " for " + tag);
        }
        Path jar = dir.resolve("jobs-" + tag + ".jar");
        try (JarOutputStream jos = new JarOutputStream(Files.newOutputStream(jar))) {
            try (Stream<Path> files = Files.list(CLASSES.resolve(JOBS))) {
                for (Path f : files.filter(p -> !(JOBS + p.getFileName()).equals(path + ".class")).sorted().toList()) {
                    add(jos, JOBS + f.getFileName(), f);
                }
            }
            add(jos, path + ".class", out.resolve(path + ".class"));
        }
        return jar;
    }

    private static void add(JarOutputStream jos, String name, Path file) throws IOException {
        jos.putNextEntry(new JarEntry(name));
        Files.copy(file, jos); // leaves the jar stream open
        jos.closeEntry();
    }

    /** An input file of {@code lines} lines: one map task per line with NLineInputFormat. */
    public static Path lines(Path dir, String name, int lines) throws IOException {
        Path file = Files.createDirectories(dir.resolve(name)).resolve("lines.txt");
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < lines; i++) {
            sb.append("line-").append(i).append('\n');
        }
        Files.writeString(file, sb);
        return file.getParent();
    }

    /**
     * Starts, in the background, a client of {@code jar}'s SleepJob on {@code cluster}: {@code maps}
     * map tasks that sleep {@code sleepMillis} each, output in the cluster's data/{@code out}; the
     * client's output goes to {@code log}. {@code options}: more -D options.
     */
    static Process sleepJob(HadoopCluster cluster, Path jar, int maps, long sleepMillis, String out, Path log,
                            String... options) throws IOException {
        Path input = lines(cluster.dir.resolve("data"), out + "-in", maps);
        List<String> args = new java.util.ArrayList<>(main("SleepJob"));
        args.add("-Dsleep.ms=" + sleepMillis);
        args.addAll(List.of(options));
        args.addAll(List.of(input.toString(), cluster.dir.resolve("data/" + out).toString()));
        return cluster.startJob(jar, args, log);
    }

    public static List<String> main(String className) {
        return List.of("org.jvmreuse.it.hadoop.jobs." + className);
    }
}
