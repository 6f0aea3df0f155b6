package org.jvmreuse.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.jvmreuse.it.hadoop.HadoopCluster;
import org.jvmreuse.it.hadoop.Job;

/**
 * The pool under MPICH: launched by MPICH's Hydra (mpiexec.hydra) with the native MPI backend
 * built against MPICH (build/mpich.env, written by job-scripts/setup.sh --with-mpich, which
 * job-scripts/run-tests.sh runs). Programs run in slots, a killed slot leaves the others serving
 * and the launch running, the pool stops without being killed, and a Hadoop job runs its tasks in
 * the pools with every map output fetched over MPI. Fails (never skips) without MPICH.
 */
class MpichTest {
    private static final Path MPICH_ENV = Pool.REPO.resolve("build/mpich.env");
    private static final Map<String, String> ENV = Map.of("JVMREUSE_MPI_ENV", MPICH_ENV.toString(),
            "JVMREUSE_MPI_BACKEND", "native");
    private static final String COUNTERS = "org.jvmreuse.shuffle.MpiShuffle/";

    @BeforeAll
    static void mpichIsSetUp() throws Exception {
        assertTrue(Files.isRegularFile(MPICH_ENV), MPICH_ENV + " is missing: run job-scripts/setup.sh --with-mpich"
                + " (job-scripts/run-tests.sh does)");
        String env = Files.readString(MPICH_ENV);
        assertTrue(env.contains("MPI_LAUNCHER=hydra") && env.contains("MPI_NATIVE_LIB="), env);
    }

    @Test
    void programsRunUnderHydraAndAKilledSlotLeavesTheOthersServing() throws Exception {
        try (Pool pool = Pool.start(2, Jdks.DEFAULT, "", ENV)) {
            String cmdline = Files.readString(Path.of("/proc/" + pool.mpirunPid() + "/cmdline")).replace('\0', ' ');
            assertTrue(cmdline.contains("mpiexec.hydra") && cmdline.contains("-disable-auto-cleanup"), cmdline);
            String status = pool.status();
            assertTrue(status.contains("mpi: native backend, MPICH Version:"), status);

            Pool.Result exited = pool.program("Exiter", "exit", "7");
            assertEquals(7, exited.code(), exited.toString());
            assertEquals("started exit\nhook ran\n", exited.out(), exited.toString());
            assertTrue(exited.err().contains("running in slot"), exited.err());
            Pool.Result echo = pool.program("Echo", "12");
            assertEquals(5, echo.code(), echo.toString());
            assertEquals("echo 12\n", echo.out(), echo.toString());
            assertTrue(echo.err().contains("err 12\n"), echo.toString());

            pool.killSlotUnderARun();
            assertTrue(pool.mpirunAlive(), "mpiexec must survive a dead slot");
            // the other slot may still be cleaning up after its run: it sends FREE after DONE
            pool.awaitStatus("(free 1, busy 0, starting 0, retired 1)", 30_000);
            for (int i = 0; i < 3; i++) {
                Pool.Result next = pool.program("StaticCounter");
                assertEquals("1\n", next.out(), next.toString());
                assertTrue(next.err().contains("running in slot"), next.err());
            }

            // The stop: every rank leaves (no MPI_Finalize waiting for the dead one) and
            // mpiexec ends by itself, without the SIGTERM fallback.
            Pool.Result stopped = pool.stop(false);
            assertEquals(0, stopped.code(), stopped.toString());
            assertFalse(stopped.err().contains("SIGTERM"), stopped.toString());
            assertFalse(pool.mpirunAlive(), "mpiexec still runs after the stop");
        }
    }

    @Test
    void hadoopJobRunsInPoolsUnderMpichWithTheMpiShuffle() throws Exception {
        // Two NodeManagers: two pools in one Hydra launch; as many slots as containers per
        // NodeManager, so no task falls back to the stock launch.
        try (HadoopCluster cluster = HadoopCluster.start(ENV, 2, "--pool", "--slots", "4")) {
            long pids = Long.parseLong(Files.readString(cluster.dir.resolve("pools.pid")).trim());
            String cmdline = Files.readString(Path.of("/proc/" + pids + "/cmdline")).replace('\0', ' ');
            assertTrue(cmdline.contains("mpiexec.hydra"), cmdline);
            for (int i = 1; i <= 2; i++) {
                String status = cluster.poolStatus(i);
                assertTrue(status.contains("mpi: native backend, MPICH Version:"), status);
            }
            Path input = cluster.newDir("text");
            Map<String, Long> expected = writeText(input, 4, 1500);
            Path output = cluster.dir.resolve("data/wc");
            long before = cluster.pooledRuns();
            Job job = cluster.example("wordcount", List.of("-Dmapreduce.job.reduces=2",
                    "-Dmapreduce.job.reduce.shuffle.consumer.plugin.class=org.jvmreuse.shuffle.reduce.MpiShuffle"),
                    input.toString(), output.toString());
            assertTrue(job.succeeded(), job.toString());
            assertEquals(expected, readCounts(output));
            Map<String, Long> c = job.counters();
            assertEquals(4L * 2, c.getOrDefault(COUNTERS + "MPI_MAPS", -1L), "map outputs over MPI: " + c);
            assertEquals(0L, c.getOrDefault(COUNTERS + "HTTP_MAPS", -1L), "map outputs over HTTP: " + c);
            // the 4 maps and 2 reduces ran in the pools (each NodeManager has 4 slots, so none fell back)
            long ran = cluster.pooledRuns() - before;
            assertTrue(ran >= 6, "only " + ran + " runs in the pools");
        }
    }

    /** Writes {@code files} text files; returns the count of each word in them. */
    private static Map<String, Long> writeText(Path dir, int files, int lines) throws Exception {
        Random random = new Random(7);
        Map<String, Long> counts = new TreeMap<>();
        for (int f = 0; f < files; f++) {
            StringBuilder sb = new StringBuilder();
            for (int l = 0; l < lines; l++) {
                int n = 1 + random.nextInt(10);
                for (int w = 0; w < n; w++) {
                    String word = Integer.toString(random.nextInt(300) * 7919, 36);
                    sb.append(w == 0 ? "" : " ").append(word);
                    counts.merge(word, 1L, Long::sum);
                }
                sb.append('\n');
            }
            Files.writeString(dir.resolve("part-" + f + ".txt"), sb);
        }
        return counts;
    }

    /** The word counts of a wordcount output dir (part-r-* files, "word TAB count" lines). */
    private static Map<String, Long> readCounts(Path dir) throws Exception {
        Map<String, Long> counts = new TreeMap<>();
        List<Path> parts = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            files.filter(p -> p.getFileName().toString().startsWith("part-r-")).forEach(parts::add);
        }
        assertEquals(2, parts.size(), "reduce outputs in " + dir + ": " + parts);
        for (Path part : parts) {
            for (String line : Files.readAllLines(part)) {
                String[] kv = line.split("\t");
                assertEquals(null, counts.put(kv[0], Long.parseLong(kv[1])), "word twice in the output: " + kv[0]);
            }
        }
        return counts;
    }
}
