package org.jvmreuse.hadoop.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import org.junit.jupiter.api.Test;
import org.jvmreuse.hadoop3.task.job.HdfsClientContextUser;
import org.jvmreuse.hadoop3.task.job.HdfsClientContextsSeen;
import org.jvmreuse.pool.slot.RunOutcome;

/**
 * On Hadoop 3.x, in a slot in this JVM (HadoopRuns, as AppMasterStatics3Test): a run that made
 * HDFS client contexts and cached a socket to a data node (this test's server) in one leaves the
 * slot clean (the contexts are closed, not a reason to retire), its socket closed as a JVM exit
 * would, and its loader collectable (a context holds the run's Configuration); the next run
 * finds no context and makes its own.
 */
class HdfsClientContexts3Test {
    private static final long GC_WAIT_MILLIS = 20_000;

    @Test
    void aRunsClientContextsAreClosedAndTheNextRunMakesItsOwn() throws Exception {
        try (ServerSocket dataNode = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            RunOutcome user = HadoopRuns.run(HadoopRuns.of(HdfsClientContextUser.class,
                    Integer.toString(dataNode.getLocalPort())));
            assertEquals("[default, second]", user.printed("contexts"));
            assertEquals("1", user.printed("peers"));
            try (Socket peer = dataNode.accept()) {
                peer.setSoTimeout(5_000);
                assertEquals(-1, peer.getInputStream().read(), "the cached peer's socket is still open");
            }
            RunOutcome next = HadoopRuns.run(HadoopRuns.of(HdfsClientContextsSeen.class));
            assertEquals("[]", next.printed("contexts"));
            assertEquals("0", next.printed("peers"));
            assertTrue(user.loaderCollectedWithin(GC_WAIT_MILLIS), "the run's class loader is still reachable");
        }
    }
}
