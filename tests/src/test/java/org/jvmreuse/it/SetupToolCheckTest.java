package org.jvmreuse.it;

import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jvmreuse.it.Pool.Result;
import org.junit.jupiter.api.Test;

/**
 * job-scripts/setup.sh stops before doing anything when a command the scripts call is missing,
 * and names it with the packages that provide it. Its PATH here holds the other commands it
 * checks and no apt-get, dnf, java or mvn, so it can neither install nor build.
 */
class SetupToolCheckTest {
    /** The commands of lib/setup/build.sh's tool list but curl, and dirname (setup.sh's first line). */
    private static final List<String> PRESENT = List.of("awk", "sed", "grep", "find", "tar", "ps", "hostname", "getent",
            "timeout", "mktemp", "nproc", "readlink", "stat", "dirname");

    @Test
    void namesAMissingCurlWithItsPackages() throws Exception {
        Path bin = Files.createTempDirectory("jrt-setup-path");
        try {
            for (String tool : PRESENT) {
                Files.createSymbolicLink(bin.resolve(tool), onPath(tool));
            }
            Result r = Pool.exec(List.of(onPath("bash").toString(), Pool.REPO.resolve("job-scripts/setup.sh").toString()),
                    Map.of("PATH", bin.toString(), "JAVA_HOME", ""), null, 60);
            assertNotEquals(0, r.code(), "setup.sh went on without curl: " + r);
            assertTrue(r.err().contains("missing commands: curl; install them (Debian/Ubuntu: apt-get install curl; "
                    + "RHEL family: dnf install curl)"), "setup.sh did not name curl and its packages: " + r);
            assertTrue(r.out().lines().noneMatch(l -> l.contains("JDK") || l.contains("build")), "setup.sh went on: " + r);
        } finally {
            try (var files = Files.walk(bin)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }

    private static Path onPath(String tool) {
        for (String dir : System.getenv("PATH").split(File.pathSeparator)) {
            Path p = Path.of(dir, tool);
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        throw new IllegalStateException(tool + " is not on this machine's PATH");
    }
}
