package org.jvmreuse.pool.mpi;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The communication thread polls only while it waits for a peer that cannot ring it: after
 * service traffic with a peer on its host (a doorbell between them) it sleeps, and that peer's
 * next message still wakes it at once, also when MPI shows the message only a few probes after
 * the ring (as Open MPI does); after service traffic with a peer on another host (no doorbell)
 * it polls, and finds that peer's messages.
 */
class MpiTransportDoorbellTest {
    /** Long enough to hold many polls of the service window (1 ms apart at most), well inside it (200 ms). */
    private static final long COUNT_MILLIS = 150;

    /**
     * The in-process MPI, counting MPI_Iprobe calls: one per round of the loop that did not send.
     * With {@code late} > 0, a message shows only in the {@code late}+1st probe that could see it.
     */
    private static final class CountingProbes extends ForwardingMpi {
        final AtomicLong probes = new AtomicLong();
        private final int late;
        private int hidden;

        CountingProbes(InProcessMpi mpi, int late) {
            super(mpi);
            this.late = late;
        }

        @Override
        public Envelope iProbe(int source, int tag) {
            probes.incrementAndGet();
            Envelope envelope = mpi.iProbe(source, tag);
            if (envelope != null && hidden < late) {
                hidden++;
                return null;
            }
            hidden = 0;
            return envelope;
        }
    }

    private final List<AutoCloseable> toClose = new ArrayList<>();
    private final List<MpiTransport> transports = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();
    /** When rank 0 received each service message. */
    private final BlockingQueue<Long> received = new LinkedBlockingQueue<>();
    private CountingProbes watchedMpi;
    private MpiTransport watched;
    private MpiTransport peer;

    /** Rank 0 (watched) and rank 1 on the given hosts; a doorbell between them when they share one, as PoolMain makes it. */
    private void start(String host0, String host1) throws Exception {
        start(host0, host1, 0);
    }

    /** As above; rank 0's MPI shows each message only in the {@code late}+1st probe that could see it. */
    private void start(String host0, String host1, int late) throws Exception {
        List<InProcessMpi> world = InProcessMpi.world(List.of(host0, host1));
        Doorbells bells0 = new Doorbells();
        Doorbells bells1 = new Doorbells();
        toClose.add(bells0);
        toClose.add(bells1);
        if (world.get(0).processorName().equals(world.get(1).processorName())) {
            ServerSocketChannel server = ServerSocketChannel.open();
            toClose.add(server);
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            bells1.attach(0, SocketChannel.open(server.getLocalAddress()));
            bells0.attach(1, server.accept());
        }
        watchedMpi = new CountingProbes(world.get(0), late);
        watched = new MpiTransport(watchedMpi, bells0);
        watched.setServiceReceiver((source, message) -> {
            received.add(System.nanoTime());
            watched.release(message);
        });
        peer = new MpiTransport(world.get(1), bells1);
        peer.setServiceReceiver((source, message) -> peer.release(message));
        for (MpiTransport transport : List.of(watched, peer)) {
            transports.add(transport);
            Thread thread = new Thread(() -> {
                try {
                    transport.run(new NoMessages(true)); // a manager whose own slots all ring it: its idle wait is the long one
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, "test-comm-loop");
            threads.add(thread);
            thread.start();
        }
    }

    @AfterEach
    void stop() throws Exception {
        transports.forEach(MpiTransport::stop);
        for (Thread thread : threads) {
            thread.join(10_000);
        }
        for (AutoCloseable closeable : toClose) {
            closeable.close();
        }
    }

    /** Service traffic both ways (a fetch request in, data out), then the probes of rank 0 over {@link #COUNT_MILLIS}. */
    private long probesAfterServiceTraffic() throws InterruptedException {
        peer.send(0, Tags.SERVICE, new byte[64]);
        assertNotNull(received.poll(10, TimeUnit.SECONDS), "rank 0 never got the request");
        watched.send(1, Tags.SERVICE, new byte[64 << 10]);
        Thread.sleep(20); // past the short hot window after traffic
        long before = watchedMpi.probes.get();
        Thread.sleep(COUNT_MILLIS);
        return watchedMpi.probes.get() - before;
    }

    /** Sorted ms from the peer's send to rank 0's delivery of {@code count} messages, each after 60 ms asleep. */
    private long[] latenciesAfterSleeping(int count) throws InterruptedException {
        long[] latencies = new long[count];
        for (int i = 0; i < latencies.length; i++) {
            Thread.sleep(60); // long asleep
            long sent = System.nanoTime();
            peer.send(0, Tags.SERVICE, new byte[64]);
            Long got = received.poll(10, TimeUnit.SECONDS);
            assertNotNull(got, "rank 0 never got the message");
            latencies[i] = TimeUnit.NANOSECONDS.toMillis(got - sent);
        }
        Arrays.sort(latencies);
        return latencies;
    }

    @Test
    void afterServiceTrafficWithAPeerOnItsHostTheThreadSleepsAndThatPeerStillWakesItAtOnce() throws Exception {
        start("node0", "node0");
        long probes = probesAfterServiceTraffic();
        // Asleep on the doorbells it looks every 50 ms: 3 or 4 probes; polling, one a millisecond.
        assertTrue(probes <= 12, probes + " MPI probes in " + COUNT_MILLIS + " ms: it polled");
        long[] latencies = latenciesAfterSleeping(5);
        // Found by its idle wait alone, a message would wait 25 ms in the middle.
        assertTrue(latencies[latencies.length / 2] < 20, "delivered after " + Arrays.toString(latencies) + " ms");
    }

    @Test
    void aMessageThatMpiShowsOnlyAFewProbesAfterItsRingIsStillReceivedAtOnce() throws Exception {
        start("node0", "node0", 3);
        long probes = probesAfterServiceTraffic();
        assertTrue(probes <= 12, probes + " MPI probes in " + COUNT_MILLIS + " ms: it polled");
        long[] latencies = latenciesAfterSleeping(7);
        // A loop that went back to sleep after its first empty probe would find every one of
        // them at its idle poll, 50 ms later or more; on a loaded machine even four probes in a
        // row can take that long now and then, so the fastest delivery tells.
        assertTrue(latencies[0] < 25, "delivered after " + Arrays.toString(latencies) + " ms");
    }

    @Test
    void afterServiceTrafficWithAPeerOnAnotherHostTheThreadPollsAndFindsItsMessages() throws Exception {
        start("node0", "node1");
        long probes = probesAfterServiceTraffic();
        assertTrue(probes >= 20, "only " + probes + " MPI probes in " + COUNT_MILLIS + " ms: it slept");
        Thread.sleep(300); // past the service window: asleep, but still looking now and then
        peer.send(0, Tags.SERVICE, new byte[64]);
        assertNotNull(received.poll(5, TimeUnit.SECONDS), "the remote peer's message was not found");
    }
}
