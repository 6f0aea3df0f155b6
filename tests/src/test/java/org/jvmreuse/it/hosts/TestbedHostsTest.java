package org.jvmreuse.it.hosts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.jvmreuse.it.Pool;
import org.jvmreuse.it.slurm.SlurmTestbed;

/**
 * Issue 29: the multi-host testbed (job-scripts/testbed/jvmreuse-hosts) makes real separate hosts
 * on this machine, one launch starts a pool on each, and each serves runs there; its fault
 * injection cuts links and crashes hosts; stopping it, or starting again after a user that never
 * stopped it, leaves nothing of it on the machine.
 */
class TestbedHostsTest {
    private static final Path HOSTS = Pool.REPO.resolve("job-scripts/testbed/jvmreuse-hosts");
    private static final String SOCKET = "/tmp/jvmreuse-testbed-test/pool.sock";

    @AfterEach
    void stopTestbed() throws Exception {
        Pool.exec(List.of(HOSTS.toString(), "stop"), Map.of(), null, 60);
    }

    @Test
    void threeHostsEachWithItsOwnNameAddressAndTmp() throws Exception {
        Pool.Result started = Pool.exec(List.of(HOSTS.toString(), "start", "--hosts", "3"), Map.of(), null, 60);
        assertEquals(0, started.code(), started.toString());
        assertEquals("n1\t10.77.0.1\nn2\t10.77.0.2\nn3\t10.77.0.3\n", started.out());
        for (int i = 1; i <= 3; i++) {
            Pool.Result seen = in("n" + i, "sh", "-c", "hostname; ip -4 -o addr show eth0 | awk '{print $4}';"
                    + " getent hosts n1 n2 n3 | awk '{print $2}' | tr '\\n' ' '; echo; echo here > /tmp/mark-$(hostname);"
                    + " ls /tmp | grep '^mark-'; test -x " + HOSTS + " && echo checkout shared");
            assertEquals(0, seen.code(), seen.toString());
            // its own /tmp (no other host's mark), the checkout the machine's even if under /tmp
            assertEquals("n" + i + "\n10.77.0." + i + "/24\nn1 n2 n3 \nmark-n" + i + "\ncheckout shared\n", seen.out(),
                    seen.toString());
            assertFalse(Files.exists(Path.of("/tmp/mark-n" + i)), "a host's /tmp is its own, not this machine's");
        }
    }

    @Test
    void oneLaunchStartsAPoolOnEveryHostAndEachServesItsRuns() throws Exception {
        assertEquals(0, Pool.exec(List.of(HOSTS.toString(), "start", "--hosts", "3"), Map.of(), null, 60).code());
        Pool.Result mpiEnv = Pool.exec(List.of(HOSTS.toString(), "mpi-env"), Map.of(), null, 10);
        List<String> start = new ArrayList<>(List.of("sh", "-c", mpiEnv.out() + "\nexec \"$@\"", "start",
                Pool.REPO.resolve("job-scripts/bin/jvmreuse-pool").toString(), "start", "--nodes", "3", "--slots", "1",
                "--heap", "256m", "--socket", SOCKET));
        Pool.Result pools = in("n1", start.toArray(String[]::new));
        assertEquals(0, pools.code(), pools.toString());
        try {
            for (int i = 1; i <= 3; i++) {
                String host = "n" + i;
                Pool.Result status = awaitServing(host);
                assertTrue(status.out().startsWith("pool " + (i - 1) + " on " + host + ": serving"), status.toString());
                Pool.Result run = in(host, "env", "JVMREUSE_SOCKET=" + SOCKET, Pool.CLIENT.toString(), "run", "-v", "-cp",
                        Pool.REPO.resolve("tests/target/test-classes").toString(), "org.jvmreuse.it.programs.Echo", "5");
                assertEquals(5, run.code(), run.toString());
                assertTrue(run.err().contains("running in slot 0 (rank " + (2 * i - 1) + ","), run.toString());
            }
        } finally {
            // Each host's pool by its own socket (node-local), then the launch from where it started.
            for (String host : List.of("n2", "n3")) {
                in(host, "env", "JVMREUSE_SOCKET=" + SOCKET, Pool.CLIENT.toString(), "stop", "--now");
            }
            Pool.Result stopped = in("n1", Pool.REPO.resolve("job-scripts/bin/jvmreuse-pool").toString(), "stop", "--socket",
                    SOCKET, "--now");
            assertEquals(0, stopped.code(), stopped.toString());
            assertFalse(stopped.err().contains("did not stop"), "every host's pool stopped: " + stopped);
        }
    }

    @Test
    void stopLeavesNothingAndAStartCleansUpATestbedNobodyStopped() throws Exception {
        assertEquals(0, Pool.exec(List.of(HOSTS.toString(), "start", "--hosts", "2"), Map.of(), null, 60).code());
        // a user of the testbed that died without stopping it: a process left in a host
        Process left = new ProcessBuilder(HOSTS.toString(), "exec", "n1", "sleep", "600").start();
        Thread.sleep(300);
        assertTrue(left.isAlive());
        Pool.Result again = Pool.exec(List.of(HOSTS.toString(), "start", "--hosts", "3"), Map.of(), null, 60);
        assertEquals(0, again.code(), again.toString());
        left.waitFor(10, java.util.concurrent.TimeUnit.SECONDS);
        assertFalse(left.isAlive(), "the old testbed's processes end with it");
        assertEquals("n1 n2 n3", machine("ip netns list | awk '{print $1}' | grep '^jrh-' | sort | sed 's/jrh-//' | tr '\\n' ' '").trim());

        assertEquals(0, Pool.exec(List.of(HOSTS.toString(), "stop"), Map.of(), null, 60).code());
        assertEquals("", machine("ip netns list | grep '^jrh-' || true"), "namespaces left");
        assertEquals("", machine("ip -o link show | awk -F': ' '{print $2}' | grep '^jrh' || true"), "links left");
        assertEquals("", machine("grep -E 'tmp-n[0-9]|shm-n[0-9]' /proc/self/mountinfo || true"), "mounts left");
        assertFalse(Files.exists(Path.of("/run/jvmreuse-hosts")), "state left");
        Pool.Result status = Pool.exec(List.of(HOSTS.toString(), "status"), Map.of(), null, 10);
        assertEquals(1, status.code(), status.toString());
    }

    /**
     * The faults the multi-host tests inject: a cut link (the host's processes run on, nothing
     * reaches them; mended again) and a crash (link down, every process of the host SIGKILLed at
     * once, the host still listed for stop). pids lists a host's processes.
     */
    @Test
    void aLinkCutAndMendedAndAHostCrashed() throws Exception {
        assertEquals(0, Pool.exec(List.of(HOSTS.toString(), "start", "--hosts", "2"), Map.of(), null, 60).code());
        Process sleeper = new ProcessBuilder(HOSTS.toString(), "exec", "n2", "sleep", "600").start();
        // A host that is there refuses a port nobody listens on at once; one cut off says nothing.
        String knock = "timeout 3 bash -c 'echo > /dev/tcp/n2/7777' 2>/dev/null; case $? in 124) echo silent;; *) echo answers;; esac";
        assertEquals("answers\n", in("n1", "bash", "-c", knock).out());
        long deadline = System.currentTimeMillis() + 10_000;
        Pool.Result pids;
        do {
            pids = Pool.exec(List.of(HOSTS.toString(), "pids", "n2"), Map.of(), null, 10);
            assertEquals(0, pids.code(), pids.toString());
        } while (pids.out().lines().noneMatch(p -> SlurmTestbed.commandLine(Long.parseLong(p)).equals("sleep 600")) && System.currentTimeMillis() < deadline);
        assertTrue(pids.out().lines().anyMatch(p -> SlurmTestbed.commandLine(Long.parseLong(p)).equals("sleep 600")), "n2's sleep among its processes: " + pids.out());

        assertEquals(0, Pool.exec(List.of(HOSTS.toString(), "link", "n2", "down"), Map.of(), null, 10).code());
        assertEquals("silent\n", in("n1", "bash", "-c", knock).out(), "a cut link lets nothing through");
        assertTrue(sleeper.isAlive(), "a cut link ends nothing");
        assertEquals(0, Pool.exec(List.of(HOSTS.toString(), "link", "n2", "up"), Map.of(), null, 10).code());
        assertEquals("answers\n", in("n1", "bash", "-c", knock).out(), "a mended link lets it through again");

        Pool.Result crashed = Pool.exec(List.of(HOSTS.toString(), "crash", "n2"), Map.of(), null, 30);
        assertEquals(0, crashed.code(), crashed.toString());
        assertTrue(sleeper.waitFor(10, java.util.concurrent.TimeUnit.SECONDS), "n2's processes end with it");
        assertEquals("", Pool.exec(List.of(HOSTS.toString(), "pids", "n2"), Map.of(), null, 10).out(), "nothing runs on n2");
        assertEquals("silent\n", in("n1", "bash", "-c", knock).out(), "a crashed host says nothing");

        Pool.Result bad = Pool.exec(List.of(HOSTS.toString(), "link", "n2", "sideways"), Map.of(), null, 10);
        assertEquals(1, bad.code(), bad.toString());
        assertTrue(bad.err().contains("link n2 needs up or down (got 'sideways')"), bad.toString());
        Pool.Result none = Pool.exec(List.of(HOSTS.toString(), "crash", "n9"), Map.of(), null, 10);
        assertEquals(1, none.code(), none.toString());
        assertTrue(none.err().contains("no host n9"), none.toString());
    }

    private static Pool.Result awaitServing(String host) throws Exception {
        long deadline = System.currentTimeMillis() + 60_000;
        Pool.Result status;
        do {
            status = in(host, "env", "JVMREUSE_SOCKET=" + SOCKET, Pool.CLIENT.toString(), "status");
            if (status.code() == 0 && status.out().contains("(free 1,")) {
                return status;
            }
            Thread.sleep(200);
        } while (System.currentTimeMillis() < deadline);
        return status;
    }

    private static Pool.Result in(String host, String... command) throws Exception {
        List<String> full = new ArrayList<>(List.of(HOSTS.toString(), "exec", host));
        full.addAll(List.of(command));
        return Pool.exec(full, Map.of(), Pool.REPO, 180);
    }

    private static String machine(String script) throws Exception {
        return Pool.exec(List.of("bash", "-c", script), Map.of(), null, 10).out();
    }
}
