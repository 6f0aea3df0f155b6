package org.jvmreuse.hadoop.executor;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.yarn.server.nodemanager.ContainerExecutor.Signal;
import org.junit.jupiter.api.Test;

/** YARN's kill reaches a container's whole process group (as launched: under setsid). */
class ContainerSignalTest {
    @Test
    void termReachesEveryProcessOfTheContainersGroup() throws Exception {
        // a session leader with a child, as the container's bash and its java (or jvmreuse client)
        Process leader = new ProcessBuilder("setsid", "bash", "-c", "sleep 300 & wait").start();
        try {
            String pid = Long.toString(leader.pid());
            Thread.sleep(200); // let bash start its child
            long child = leader.toHandle().children().findFirst().orElseThrow().pid();
            PoolContainerExecutor executor = new PoolContainerExecutor();
            assertTrue(executor.signalContainer("user", pid, Signal.NULL), "the group is alive");
            assertTrue(executor.signalContainer("user", pid, Signal.TERM));
            assertTrue(leader.waitFor(5, TimeUnit.SECONDS), "the container's leader ended");
            assertTrue(waitGone(child), "the container's child ended too");
        } finally {
            leader.destroyForcibly();
        }
    }

    @Test
    void aContainerThatIsGoneIsReportedAsSuch() throws Exception {
        Process gone = new ProcessBuilder("setsid", "true").start();
        gone.waitFor(); // exited and reaped, with no child left in its group
        PoolContainerExecutor executor = new PoolContainerExecutor();
        assertFalse(executor.signalContainer("user", Long.toString(gone.pid()), Signal.TERM));
        assertFalse(executor.signalContainer("user", Long.toString(gone.pid()), Signal.NULL));
    }

    @Test
    void refusesWhatIsNotAProcessId() {
        PoolContainerExecutor executor = new PoolContainerExecutor();
        assertThrows(IOException.class, () -> executor.signalContainer("user", "1; rm -rf /", Signal.TERM));
        assertThrows(IOException.class, () -> executor.signalContainer("user", "-1", Signal.KILL));
    }

    private static boolean waitGone(long pid) throws InterruptedException {
        for (int i = 0; i < 50; i++) {
            if (ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true) || zombie(pid)) {
                return true;
            }
            Thread.sleep(100);
        }
        return false;
    }

    private static boolean zombie(long pid) {
        try {
            String stat = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/" + pid + "/stat"));
            return stat.charAt(stat.lastIndexOf(')') + 2) == 'Z';
        } catch (IOException gone) {
            return true;
        }
    }
}
