package org.jvmreuse.hadoop.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.ipc.ProtocolSignature;
import org.apache.hadoop.ipc.RPC;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.jvmreuse.hadoop.task.job.SendsDone;
import org.jvmreuse.hadoop.task.job.Umbilical;
import org.jvmreuse.pool.slot.InProcessSlot;
import org.jvmreuse.pool.slot.RunOutcome;
import org.jvmreuse.pool.slot.StartedRun;

/**
 * A run ended while its RPC is in flight repeats nothing: the way an MRAppMaster stops a task
 * container right after taking its {@code done}. The slot interrupts the run's threads; the
 * interrupted IPC connection thread fails the call the main thread waits on, and Hadoop's Task
 * (like the program here) repeats a failed {@code done}: a second one fails the whole job in the
 * AM ("Invalid event TA_DONE"). A killed JVM could not repeat it, and neither may a run.
 */
class RunEndRpcTest {
    /** The application master's end (this test's Hadoop): counts the calls and holds the first until released. */
    static final class Master implements Umbilical {
        final AtomicInteger calls = new AtomicInteger();
        final CountDownLatch firstArrived = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        @Override
        public void done(String attempt) throws IOException {
            if (calls.incrementAndGet() == 1) {
                firstArrived.countDown();
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }

        @Override
        public long getProtocolVersion(String protocol, long clientVersion) {
            return versionID;
        }

        @Override
        public ProtocolSignature getProtocolSignature(String protocol, long clientVersion, int hash) throws IOException {
            return ProtocolSignature.getProtocolSignature(this, protocol, clientVersion, hash);
        }
    }

    private final Master master = new Master();
    private RPC.Server server;

    @BeforeEach
    void startMaster() throws IOException {
        server = new RPC.Builder(new Configuration()).setProtocol(Umbilical.class).setInstance(master)
                .setBindAddress("127.0.0.1").setPort(0).setNumHandlers(2).build();
        server.start();
    }

    @AfterEach
    void stopMaster() {
        master.release.countDown();
        server.stop();
    }

    @Test
    void aCallInFlightWhenTheRunEndsIsNotRepeated() throws Exception {
        InetSocketAddress address = server.getListenerAddress();
        StartedRun run = InProcessSlot.get().start(HadoopRuns.of(SendsDone.class, "127.0.0.1",
                Integer.toString(address.getPort())));
        assertTrue(master.firstArrived.await(30, TimeUnit.SECONDS), "the run's done never arrived");
        run.signal(15);
        RunOutcome outcome = run.await();
        master.release.countDown();
        assertNull(outcome.slotProblem(), outcome::toString);
        assertTrue(Integer.parseInt(outcome.printed("attempts")) > 1, "the ended run's call did not fail: " + outcome);
        assertEquals(1, master.calls.get(), "calls the master took; " + outcome);
        assertTrue(outcome.printed("failure").contains("The client is stopped"), outcome::toString);
    }
}
