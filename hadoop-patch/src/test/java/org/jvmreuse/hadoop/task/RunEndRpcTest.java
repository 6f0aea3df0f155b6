package org.jvmreuse.hadoop.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.ipc.ProtocolSignature;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.ipc.VersionedProtocol;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A run ended while its RPC is in flight repeats nothing: the way an MRAppMaster stops a task
 * container right after taking its {@code done}. The slot interrupts the run's threads; the
 * interrupted IPC connection thread fails the call the main thread waits on, and Hadoop's Task
 * (like the program here) repeats a failed {@code done}: a second one fails the whole job in the
 * AM ("Invalid event TA_DONE"). A killed JVM could not repeat it, and neither may a run.
 */
class RunEndRpcTest {
    /** Stands in for the task umbilical (a WritableRpcEngine protocol, as Hadoop 2.2's is). */
    public interface Umbilical extends VersionedProtocol {
        long versionID = 1L;

        void done(String attempt) throws IOException;
    }

    /** Counts the calls; holds the first one until released, so the run ends while it is in flight. */
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
        AtomicReference<IOException> lastFailure = new AtomicReference<>();
        AtomicInteger attempts = new AtomicInteger();
        CountDownLatch end = new CountDownLatch(1);
        Thread ender = new Thread(() -> {
            try {
                if (master.firstArrived.await(30, TimeUnit.SECONDS)) {
                    end.countDown();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        ender.start();
        new SlotRun(new RunLoader()).runUntil(end, () -> {
            Configuration conf = new Configuration();
            conf.setInt("ipc.client.connect.max.retries", 2);
            Umbilical umbilical = RPC.getProxy(Umbilical.class, Umbilical.versionID, address, conf);
            // Task.sendDone: up to 10 attempts, each IOException logged and retried
            for (int retries = 10; retries > 0; retries--) {
                attempts.incrementAndGet();
                try {
                    umbilical.done("attempt_1_0001_m_000000_0");
                    return null;
                } catch (IOException e) {
                    lastFailure.set(e);
                }
            }
            return null;
        });
        ender.join();
        master.release.countDown();
        assertTrue(attempts.get() > 1, "the ended run's call did not fail, nothing was tried again: " + attempts);
        assertEquals(1, master.calls.get(), "calls the master took; the program's last failure: " + lastFailure.get());
        assertTrue(String.valueOf(lastFailure.get()).contains("The client is stopped"), String.valueOf(lastFailure.get()));
    }
}
