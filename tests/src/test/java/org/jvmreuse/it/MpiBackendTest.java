package org.jvmreuse.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/**
 * The pool runs on the MPI backend it is asked for (JVMREUSE_MPI_BACKEND; the build runs the
 * pool tests once per backend) and says which in its log and status; a backend that cannot be
 * used stops the start with a message that names it. Its slots warm up with the built-in program's
 * default 20 runs.
 */
class MpiBackendTest {
    private static final String BACKEND = System.getenv().getOrDefault("JVMREUSE_MPI_BACKEND", "native");

    @Test
    void poolRunsOnTheBackendAskedForAndNamesIt() throws Exception {
        String expected = BACKEND.equals("java") ? "java-bindings" : "native";
        try (Pool pool = Pool.start(1, Jdks.DEFAULT, "", Map.of("JVMREUSE_WARMUP_RUNS", ""))) { // the default warm-up
            String status = pool.status();
            assertTrue(status.contains("\nmpi: " + expected + " backend, "), "status does not name the " + expected + " backend:\n" + status);
            String slotLog = pool.slotLog(1);
            assertTrue(slotLog.contains("MPI: " + expected + " backend"), "slot log does not name the backend");
            // The built-in warm-up program is found in the pool's jar (not on the JVM's class path, the launcher's).
            assertTrue(slotLog.contains("warmed up with 20 runs in ") && !slotLog.contains("ended with exit code"), slotLog);
            Pool.Result result = pool.program("Echo", "5");
            assertEquals(5, result.code(), result.toString());
            assertEquals("echo 5\n", result.out());
        }
    }

    @Test
    void anUnknownBackendIsRefusedByName() throws Exception {
        Path dir = Files.createTempDirectory(Path.of("/tmp"), "jrt-backend-");
        try {
            Pool.Result result = Pool.exec(List.of(Pool.LAUNCHER.toString(), "start", "--slots", "1",
                    "--socket", dir.resolve("pool.sock").toString()), Map.of("JVMREUSE_MPI_BACKEND", "openmpi-rdma"), null, 60);
            assertNotEquals(0, result.code(), result.toString());
            assertTrue(result.err().contains("JVMREUSE_MPI_BACKEND must be native or java (got 'openmpi-rdma')"), result.toString());
        } finally {
            try (var files = Files.walk(dir)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }

    /** Where setup provisioned Open MPI's Java bindings, the pool jar has their backend (and the build tests it). */
    @Test
    void buildHasTheJavaBindingsBackendWhereTheBindingsExist() throws Exception {
        Path env = Pool.REPO.resolve("build/mpi.env");
        boolean bindings = Files.exists(env) && Files.readString(env).contains("MPI_JAVA_JAR=/");
        Path jar;
        try (var files = Files.list(Pool.REPO.resolve("pool-manager/target"))) {
            jar = files.filter(f -> f.getFileName().toString().matches("pool-manager-[^-]+(-SNAPSHOT)?\\.jar")).findFirst().orElseThrow();
        }
        try (JarFile pool = new JarFile(jar.toFile())) {
            assertEquals(bindings, pool.getEntry("org/jvmreuse/pool/mpi/JavaBindingsMpi.class") != null,
                    "Java bindings provisioned: " + bindings + ", but the pool jar " + jar + " disagrees");
        }
    }
}
