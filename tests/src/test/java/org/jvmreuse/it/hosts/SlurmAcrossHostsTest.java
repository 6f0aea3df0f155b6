package org.jvmreuse.it.hosts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jvmreuse.it.Pool;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 29: the Slurm testbed on the multi-host testbed's hosts (jvmreuse-slurm-testbed start
 * --hosts): one slurmd per host, each with its own name and address; an sbatch -N3 job's batch
 * script runs on n1, and srun and Open MPI's launcher place a rank on each host.
 */
class SlurmAcrossHostsTest {
    private static final Path HOSTS = Pool.REPO.resolve("job-scripts/testbed/jvmreuse-hosts");
    private static final Path SLURM = Pool.REPO.resolve("job-scripts/testbed/jvmreuse-slurm-testbed");

    private Path dir;

    @AfterEach
    void stopTestbeds() throws Exception {
        if (dir != null) {
            Pool.exec(List.of(SLURM.toString(), "stop", "--dir", dir.toString()), Map.of(), null, 120);
            Pool.exec(List.of("rm", "-rf", dir.toString()), Map.of(), null, 60);
        }
        Pool.exec(List.of(HOSTS.toString(), "stop"), Map.of(), null, 60);
    }

    @Test
    void anSbatchJobRunsAStepAndAnMpiLaunchOnEveryHost() throws Exception {
        assertEquals(0, Pool.exec(List.of(HOSTS.toString(), "start", "--hosts", "3"), Map.of(), null, 60).code());
        // Outside /tmp: every host has a /tmp of its own, and the daemons' files must be shared.
        dir = Files.createTempDirectory(Path.of("/var/tmp"), "jrt-slurm-hosts-");
        Pool.Result started = Pool.exec(List.of(SLURM.toString(), "start", "--hosts", "--nodes", "3", "--dir",
                dir.toString()), Map.of(), null, 600);
        assertEquals(0, started.code(), started.toString());
        assertTrue(started.err().contains("slurmctld on 10.77.0.254:"), started.toString());
        String conf = Files.readString(dir.resolve("etc/slurm.conf"));
        assertTrue(conf.contains("NodeName=n2 NodeHostname=n2 NodeAddr=10.77.0.2 "), conf);

        Path out = dir.resolve("job.out");
        String script = String.join("\n", "set -e", "echo \"batch on $(hostname)\"",
                "echo \"srun: $(srun hostname | sort | tr '\\n' ' ')\"",
                "echo \"mpirun: $(mpirun --allow-run-as-root --bind-to none hostname | sort | tr '\\n' ' ')\"");
        Pool.Result job = Pool.exec(List.of("sbatch", "--wait", "-N3", "--ntasks-per-node=1", "-t", "2", "-o", out.toString(),
                "--wrap", script), Map.of("SLURM_CONF", dir.resolve("etc/slurm.conf").toString()), dir, 180);
        assertEquals(0, job.code(), job + "\n" + (Files.exists(out) ? Files.readString(out) : "(no output)"));
        assertEquals("batch on n1\nsrun: n1 n2 n3 \nmpirun: n1 n2 n3 \n", Files.readString(out));
    }
}
