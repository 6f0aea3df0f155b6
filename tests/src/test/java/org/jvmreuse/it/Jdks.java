package org.jvmreuse.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** The JDKs the pool must work on: the build's (17) and the newest one installed under /usr/lib/jvm. */
final class Jdks {
    static final String DEFAULT = Path.of(System.getProperty("java.home"), "bin", "java").toString();

    private Jdks() {
    }

    /** The default JDK, plus the newest installed one when it is a different major version. */
    static List<String> all() throws IOException {
        List<String> javas = new ArrayList<>(List.of(DEFAULT));
        String newest = newest();
        if (newest != null && major(newest) != major(DEFAULT)) {
            javas.add(newest);
        }
        return javas;
    }

    static String newest() throws IOException {
        Path jvms = Path.of("/usr/lib/jvm");
        if (!Files.isDirectory(jvms)) {
            return null;
        }
        try (Stream<Path> dirs = Files.list(jvms)) {
            return dirs.map(d -> d.resolve("bin/java")).filter(Files::isExecutable).map(Path::toString)
                    .max(Comparator.comparingInt(Jdks::major)).orElse(null);
        }
    }

    static int major(String java) {
        Path release = Path.of(java).getParent().getParent().resolve("release");
        try {
            Matcher m = Pattern.compile("JAVA_VERSION=\"(\\d+)").matcher(Files.readString(release));
            return m.find() ? Integer.parseInt(m.group(1)) : 0;
        } catch (IOException e) {
            return 0;
        }
    }
}
