package org.jvmreuse.it.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.jvmreuse.it.Pool;
import org.jvmreuse.it.Pool.Result;

/**
 * The one-machine Slurm testbed that sbatch job scripts are tested on: a 3-node batch job reaches
 * every node with srun, with mpirun (Open MPI's Slurm support, no hostfile) and with an MPI
 * program under {@code srun --mpi=pmix}; scancel ends a running job and all its processes; and
 * with proctrack/linuxproc a process a job leaves behind outlives the job, which is why the
 * testbed's stop sweeps.
 */
class SlurmTestbedTest {
    private static final Set<String> THREE_NODES = Set.of("n1", "n2", "n3");
    private static final String HELLO_C = """
            #include <mpi.h>
            #include <stdio.h>
            #include <stdlib.h>
            int main(int argc, char **argv) {
                int rank, size, sum = 0;
                MPI_Init(&argc, &argv);
                MPI_Comm_rank(MPI_COMM_WORLD, &rank);
                MPI_Comm_size(MPI_COMM_WORLD, &size);
                MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
                const char *node = getenv("SLURMD_NODENAME");
                printf("%s %d %d %d\\n", node ? node : "-", rank, size, sum);
                MPI_Finalize();
                return 0;
            }
            """;
    private static SlurmTestbed testbed;

    @BeforeAll
    static void startTestbed() throws Exception {
        testbed = SlurmTestbed.start(3);
    }

    @AfterAll
    static void stopTestbed() throws Exception {
        if (testbed != null) {
            testbed.close();
        }
    }

    @Test
    void threeNodeJobReachesEveryNodeWithSrunMpirunAndPmix() throws Exception {
        Path hello = testbed.jobs.resolve("hello");
        Files.writeString(testbed.jobs.resolve("hello.c"), HELLO_C);
        Result built = Pool.exec(List.of("mpicc", "-o", hello.toString(), testbed.jobs.resolve("hello.c").toString()),
                Map.of(), testbed.jobs, 120);
        assertEquals(0, built.code(), "mpicc (libopenmpi-dev, see job-scripts/setup.sh) could not build the MPI test program: " + built);

        long id = testbed.submit("""
                #!/bin/bash
                #SBATCH -N 3
                #SBATCH -t 2
                set -euo pipefail
                root=()
                if [[ $EUID -eq 0 ]]; then root=(--allow-run-as-root); fi
                srun bash -c 'echo "$SLURMD_NODENAME $SLURM_PROCID $(hostname)"' >"srun-$SLURM_JOB_ID.txt"
                mpirun --oversubscribe "${root[@]}" bash -c \\
                    'echo "$SLURMD_NODENAME $OMPI_COMM_WORLD_RANK $OMPI_COMM_WORLD_SIZE $(hostname)"' >"mpirun-$SLURM_JOB_ID.txt"
                srun --mpi=pmix -N3 -n3 ./hello >"pmix-$SLURM_JOB_ID.txt"
                echo "cpus per node: $SLURM_JOB_CPUS_PER_NODE"
                echo "job done"
                """);
        testbed.awaitGone(id, 45_000);
        String output = testbed.outputText(id);
        assertEquals("COMPLETED", testbed.state(id), "job output:\n" + output + testbed.showJob(id));
        assertEquals("0:0", testbed.exitCode(id), output);
        assertTrue(output.contains("job done"), output);
        String host = Pool.exec(List.of("hostname"), Map.of(), null, 10).out().trim();

        // srun: one task per node by default, on n1, n2 and n3 (all on this host).
        List<String[]> srun = lines(testbed.jobs.resolve("srun-" + id + ".txt"));
        assertEquals(3, srun.size(), "srun lines");
        assertEquals(THREE_NODES, column(srun, 0), "srun's SLURMD_NODENAME values");
        assertEquals(Set.of("0", "1", "2"), column(srun, 1), "srun's SLURM_PROCID values");
        assertEquals(Set.of(host), column(srun, 2), "srun's hostnames");

        // mpirun without a hostfile takes the allocation from Slurm: 1 CPU on each of 3 nodes.
        assertTrue(output.contains("cpus per node: 1(x3)"), output);
        List<String[]> mpirun = lines(testbed.jobs.resolve("mpirun-" + id + ".txt"));
        assertEquals(3, mpirun.size(), "mpirun ranks (one per allocated CPU)");
        assertEquals(THREE_NODES, column(mpirun, 0), "the nodes mpirun's ranks ran on");
        assertEquals(Set.of("0", "1", "2"), column(mpirun, 1), "mpirun's ranks");
        assertEquals(Set.of("3"), column(mpirun, 2), "mpirun's world size");

        // srun --mpi=pmix: a real MPI program, its Allreduce across the three nodes (0+1+2 = 3).
        List<String[]> pmix = lines(testbed.jobs.resolve("pmix-" + id + ".txt"));
        assertEquals(3, pmix.size(), "MPI ranks under srun --mpi=pmix");
        assertEquals(THREE_NODES, column(pmix, 0), "the nodes of the MPI ranks");
        assertEquals(Set.of("0", "1", "2"), column(pmix, 1), "MPI ranks");
        assertEquals(Set.of("3"), column(pmix, 2), "MPI world size");
        assertEquals(Set.of("3"), column(pmix, 3), "MPI_Allreduce sum of the ranks");

        assertEquals(List.of(), testbed.jobProcesses(id), "processes of the finished job");
    }

    @Test
    void scancelEndsARunningJobAndAllItsProcesses() throws Exception {
        long id = testbed.submit("""
                #!/bin/bash
                #SBATCH -N 3
                #SBATCH -t 5
                sleep 607 &
                srun sleep 606
                wait
                """);
        // wait: the batch shell outlives its srun step's end, so its background child is still
        // in its process tree when the batch step is signalled (proctrack/linuxproc follows parent
        // pids: a child whose shell ended first is left behind, aProcessAJobLeavesBehind... below)
        testbed.awaitState(id, "RUNNING", 30_000);
        List<Long> before = awaitProcesses(id, 15_000);
        long sleeps = before.stream().filter(p -> isCommand(p, "sleep 606")).count();
        assertEquals(3, sleeps, "srun's sleep tasks (one per node) among" + SlurmTestbed.describe(before));

        Result cancelled = testbed.scancel(id);
        assertEquals(0, cancelled.code(), "scancel: " + cancelled);
        testbed.awaitGone(id, 30_000);
        assertEquals("CANCELLED", testbed.state(id), testbed.showJob(id));

        long deadline = System.currentTimeMillis() + 5_000;
        List<Long> after = testbed.jobProcesses(id);
        while (!after.isEmpty() && System.currentTimeMillis() < deadline) {
            Thread.sleep(100);
            after = testbed.jobProcesses(id);
        }
        assertEquals(List.of(), after, "processes of the cancelled job:" + SlurmTestbed.describe(after));
        for (long pid : before) {
            assertFalse(Pool.running(pid), "process " + pid + " of the cancelled job still runs");
        }
    }

    @Test
    void aProcessAJobLeavesBehindOutlivesTheJobAndStopEndsIt() throws Exception {
        long survivor;
        try (SlurmTestbed own = SlurmTestbed.start(1)) {
            long id = own.submit("""
                    #!/bin/bash
                    #SBATCH -N 1
                    setsid sleep 608 </dev/null >/dev/null 2>&1 &
                    echo "left $!"
                    """);
            own.awaitGone(id, 30_000);
            assertEquals("COMPLETED", own.state(id), own.outputText(id));
            List<Long> left = own.jobProcesses(id);
            assertEquals(1, left.size(), "with proctrack/linuxproc the setsid child outlives its job:" + SlurmTestbed.describe(left));
            survivor = left.get(0);
            assertTrue(isCommand(survivor, "sleep 608"), SlurmTestbed.commandLine(survivor));
            assertTrue(own.outputText(id).contains("left " + survivor), own.outputText(id));
        } // close(): stop must end it, and fails if anything of the testbed is left
        assertFalse(Pool.running(survivor), "the leftover job process " + survivor + " survived the testbed's stop");
    }

    /** Waits until the job has processes and their number stops growing for a moment. */
    private static List<Long> awaitProcesses(long id, long timeoutMillis) throws Exception {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        List<Long> last = List.of();
        int stable = 0;
        while (System.currentTimeMillis() < deadline) {
            List<Long> now = testbed.jobProcesses(id);
            long sleeps = now.stream().filter(p -> isCommand(p, "sleep 606")).count();
            stable = sleeps == 3 && now.size() == last.size() ? stable + 1 : 0;
            if (stable >= 3) {
                return now;
            }
            last = now;
            Thread.sleep(100);
        }
        return last;
    }

    /** Whether process {@code pid} runs {@code command} (its program given by name or path). */
    private static boolean isCommand(long pid, String command) {
        String cmdline = SlurmTestbed.commandLine(pid);
        return cmdline.equals(command) || cmdline.endsWith("/" + command);
    }

    private static List<String[]> lines(Path file) throws Exception {
        assertTrue(Files.exists(file), file + " was not written");
        List<String[]> rows = new ArrayList<>();
        for (String line : Files.readAllLines(file)) {
            if (!line.isBlank()) {
                rows.add(line.trim().split("\\s+"));
            }
        }
        return rows;
    }

    private static Set<String> column(List<String[]> rows, int i) {
        Set<String> values = new TreeSet<>();
        for (String[] row : rows) {
            values.add(i < row.length ? row[i] : "(missing)");
        }
        return values;
    }
}
