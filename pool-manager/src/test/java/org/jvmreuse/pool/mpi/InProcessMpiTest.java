package org.jvmreuse.pool.mpi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class InProcessMpiTest {
    private static final long TIMEOUT_SECONDS = 5;
    private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "in-process-mpi-test");
        t.setDaemon(true);
        return t;
    });

    @AfterEach
    void stopThreads() throws InterruptedException {
        threads.shutdownNow();
        assertTrue(threads.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS), "test threads did not end");
    }

    private static void send(Mpi mpi, int dest, int tag, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        ByteBuffer direct = ByteBuffer.allocateDirect(bytes.length).put(bytes).flip();
        assertTrue(mpi.iSend(direct, bytes.length, dest, tag).test(), "an in-process send completes at once");
    }

    private static String recv(Mpi mpi, int source, int tag) {
        Mpi.Envelope envelope = mpi.iProbe(source, tag);
        assertTrue(envelope != null, "a message from " + source + " with tag " + tag + " is waiting");
        ByteBuffer direct = ByteBuffer.allocateDirect(envelope.count());
        mpi.recv(direct, envelope.count(), envelope.source(), envelope.tag());
        return text(direct, envelope.count());
    }

    private static String text(ByteBuffer direct, int count) {
        byte[] bytes = new byte[count];
        direct.get(0, bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    @Test
    void describesItselfAndItsRanks() {
        List<InProcessMpi> world = InProcessMpi.world(List.of("node-a", "node-a", "node-b"));
        Mpi third = world.get(2);
        assertEquals("in-process", third.backend());
        assertEquals("in-process MPI (threads of one JVM)", third.libraryVersion());
        assertEquals(2, third.rank());
        assertEquals(3, third.size());
        assertEquals("node-b", third.processorName());
        assertEquals("node-a", world.get(0).processorName());
        assertEquals(Mpi.THREAD_FUNNELED, third.initThread(Mpi.THREAD_FUNNELED));
        assertEquals(Mpi.THREAD_MULTIPLE, world.get(0).initThread(Mpi.THREAD_MULTIPLE));
        assertEquals(Mpi.THREAD_MULTIPLE, world.get(1).initThread(Mpi.THREAD_MULTIPLE + 5));
    }

    @Test
    void messagesBetweenTwoRanksKeepTheirOrderAndSendsCopyAtOnce() {
        List<InProcessMpi> world = InProcessMpi.world(2);
        ByteBuffer reused = ByteBuffer.allocateDirect(8);
        for (int i = 0; i < 5; i++) {
            reused.clear().putInt(0, i).limit(4);
            world.get(0).iSend(reused, 4, 1, 7);
        }
        reused.putInt(0, -1); // already copied: the receiver still sees 0..4
        for (int i = 0; i < 5; i++) {
            ByteBuffer in = ByteBuffer.allocateDirect(4);
            world.get(1).recv(in, 4, 0, 7);
            assertEquals(i, in.getInt(0));
        }
        assertNull(world.get(1).iProbe(Mpi.ANY_SOURCE, Mpi.ANY_TAG));
    }

    @Test
    void wildcardsMatchTheEarliestMessageAndSpecificReceivesSkipOthers() {
        List<InProcessMpi> world = InProcessMpi.world(3);
        send(world.get(1), 0, 5, "one-five");
        send(world.get(2), 0, 6, "two-six");
        send(world.get(1), 0, 6, "one-six");
        Mpi manager = world.get(0);
        assertEquals(new Mpi.Envelope(1, 5, 8), manager.iProbe(Mpi.ANY_SOURCE, Mpi.ANY_TAG));
        assertEquals(new Mpi.Envelope(2, 6, 7), manager.iProbe(Mpi.ANY_SOURCE, 6));
        assertEquals(new Mpi.Envelope(1, 6, 7), manager.iProbe(1, 6));
        assertEquals(new Mpi.Envelope(2, 6, 7), manager.iProbe(2, Mpi.ANY_TAG));
        assertNull(manager.iProbe(2, 5));
        // A specific receive takes its message from behind earlier ones, which stay queued.
        assertEquals("one-six", recv(manager, 1, 6));
        assertEquals("one-five", recv(manager, Mpi.ANY_SOURCE, Mpi.ANY_TAG));
        assertEquals("two-six", recv(manager, Mpi.ANY_SOURCE, Mpi.ANY_TAG));
        assertNull(manager.iProbe(Mpi.ANY_SOURCE, Mpi.ANY_TAG));
    }

    @Test
    void probeLeavesTheMessageForTheReceive() {
        List<InProcessMpi> world = InProcessMpi.world(2);
        send(world.get(0), 1, 3, "hello");
        Mpi.Envelope first = world.get(1).iProbe(Mpi.ANY_SOURCE, Mpi.ANY_TAG);
        assertEquals(first, world.get(1).iProbe(0, 3), "probing twice sees the same message");
        ByteBuffer in = ByteBuffer.allocateDirect(64);
        in.position(10); // received at position 0 whatever the buffer's position
        world.get(1).recv(in, first.count(), first.source(), first.tag());
        assertEquals("hello", text(in, 5));
        assertEquals(10, in.position());
        assertNull(world.get(1).iProbe(Mpi.ANY_SOURCE, Mpi.ANY_TAG));
    }

    @Test
    void aPostedReceiveCompletesWhenItsMessageArrives() {
        List<InProcessMpi> world = InProcessMpi.world(3);
        ByteBuffer in = ByteBuffer.allocateDirect(16);
        Mpi.Request request = world.get(0).iRecv(in, 16, 2, 4);
        assertFalse(request.test());
        send(world.get(1), 0, 4, "other rank");
        send(world.get(2), 0, 9, "other tag");
        assertFalse(request.test());
        send(world.get(2), 0, 4, "mine");
        assertTrue(request.test());
        assertEquals("mine", text(in, 4));
        // A message the posted receive took is not seen by probes; the others are.
        assertEquals(new Mpi.Envelope(1, 4, 10), world.get(0).iProbe(Mpi.ANY_SOURCE, Mpi.ANY_TAG));
        assertEquals(new Mpi.Envelope(2, 9, 9), world.get(0).iProbe(2, Mpi.ANY_TAG));
        // A receive posted when its message is already there completes at once.
        ByteBuffer again = ByteBuffer.allocateDirect(16);
        assertTrue(world.get(0).iRecv(again, 16, Mpi.ANY_SOURCE, 4).test());
        assertEquals("other rank", text(again, 10));
    }

    @Test
    void aBlockingReceiveWaitsForTheSender() throws Exception {
        List<InProcessMpi> world = InProcessMpi.world(2);
        Future<String> received = threads.submit(() -> {
            ByteBuffer in = ByteBuffer.allocateDirect(5);
            world.get(1).recv(in, 5, 0, 1);
            return text(in, 5);
        });
        send(world.get(0), 1, 1, "later");
        assertEquals("later", received.get(TIMEOUT_SECONDS, TimeUnit.SECONDS));
    }

    @Test
    void aMessageLongerThanTheReceiveIsAnError() {
        List<InProcessMpi> world = InProcessMpi.world(2);
        send(world.get(0), 1, 1, "too long");
        MpiException e = assertThrows(MpiException.class,
                () -> world.get(1).recv(ByteBuffer.allocateDirect(4), 4, 0, 1));
        assertTrue(e.getMessage().contains("truncated"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> world.get(0).iSend(ByteBuffer.allocate(4), 4, 1, 1));
        assertThrows(MpiException.class, () -> send(world.get(0), 2, 1, "nobody"));
    }

    @Test
    void allGatherGivesEveryRankEveryContributionByRank() throws Exception {
        int size = 4;
        List<InProcessMpi> world = InProcessMpi.world(size);
        for (int round = 0; round < 3; round++) {
            List<Future<byte[][]>> results = new ArrayList<>();
            for (InProcessMpi mpi : world) {
                byte[] mine = new byte[mpi.rank() * 3 + round]; // lengths differ, 0 included
                java.util.Arrays.fill(mine, (byte) (10 * round + mpi.rank()));
                results.add(threads.submit(() -> mpi.allGather(mine)));
            }
            for (Future<byte[][]> result : results) {
                byte[][] all = result.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                assertEquals(size, all.length);
                for (int r = 0; r < size; r++) {
                    byte[] expected = new byte[r * 3 + round];
                    java.util.Arrays.fill(expected, (byte) (10 * round + r));
                    assertArrayEquals(expected, all[r], "round " + round + ", rank " + r);
                }
            }
        }
    }

    @Test
    void allGatherWaitsForEveryRank() throws Exception {
        List<InProcessMpi> world = InProcessMpi.world(2);
        Future<byte[][]> first = threads.submit(() -> world.get(0).allGather(new byte[] {1}));
        Thread.sleep(50);
        assertFalse(first.isDone(), "rank 0 waits for rank 1");
        byte[][] second = world.get(1).allGather(new byte[] {2, 2});
        assertArrayEquals(new byte[] {1}, second[0]);
        assertArrayEquals(new byte[] {2, 2}, first.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)[1]);
    }

    @Test
    void abortEndsEveryRanksCallsAndWakesBlockedOnes() throws Exception {
        List<InProcessMpi> world = InProcessMpi.world(3);
        ByteBuffer in = ByteBuffer.allocateDirect(4);
        Mpi.Request pending = world.get(0).iRecv(in, 4, 1, 1);
        Future<?> blocked = threads.submit(() -> world.get(2).recv(ByteBuffer.allocateDirect(4), 4, 0, 1));
        Future<?> gathering = threads.submit(() -> world.get(1).allGather(new byte[0]));
        assertTrue(world.get(1).abortCode().isEmpty());
        world.get(1).abort(42);
        assertEquals(42, world.get(0).abortCode().getAsInt());
        for (Future<?> call : List.of(blocked, gathering)) {
            Exception e = assertThrows(Exception.class, () -> call.get(TIMEOUT_SECONDS, TimeUnit.SECONDS));
            assertTrue(e.getCause() instanceof MpiException && e.getCause().getMessage().contains("42"), e.toString());
        }
        MpiException probe = assertThrows(MpiException.class, () -> world.get(0).iProbe(Mpi.ANY_SOURCE, Mpi.ANY_TAG));
        assertTrue(probe.getMessage().contains("aborted with code 42"), probe.getMessage());
        assertThrows(MpiException.class, pending::test);
        assertThrows(MpiException.class, () -> send(world.get(2), 0, 1, "late"));
        assertThrows(MpiException.class, () -> world.get(0).finish());
        world.get(2).abort(7);
        assertEquals(42, world.get(2).abortCode().getAsInt(), "the first abort's code is kept");
        assertEquals(2, world.get(2).rank(), "local queries still answer");
    }

    @Test
    void finishEndsOnlyThatRank() {
        List<InProcessMpi> world = InProcessMpi.world(2);
        world.get(0).finish();
        assertTrue(world.get(0).finished());
        assertFalse(world.get(1).finished());
        assertThrows(MpiException.class, () -> world.get(0).iProbe(Mpi.ANY_SOURCE, Mpi.ANY_TAG));
        assertNull(world.get(1).iProbe(Mpi.ANY_SOURCE, Mpi.ANY_TAG));
    }

    @Test
    void manyThreadsSendingConcurrentlyKeepPerSenderOrder() throws Exception {
        int senders = 3;
        int perSender = 2000;
        List<InProcessMpi> world = InProcessMpi.world(senders + 1);
        for (int s = 1; s <= senders; s++) {
            Mpi mpi = world.get(s);
            threads.submit(() -> {
                ByteBuffer out = ByteBuffer.allocateDirect(4);
                for (int i = 0; i < perSender; i++) {
                    out.putInt(0, i);
                    mpi.iSend(out, 4, 0, 2);
                }
            });
        }
        int[] next = new int[senders + 1];
        ByteBuffer in = ByteBuffer.allocateDirect(4);
        long deadline = System.nanoTime() + Duration.ofSeconds(TIMEOUT_SECONDS).toNanos();
        for (int n = 0; n < senders * perSender; n++) {
            Mpi.Envelope envelope;
            while ((envelope = world.get(0).iProbe(Mpi.ANY_SOURCE, 2)) == null) {
                assertTrue(System.nanoTime() < deadline, "messages stopped arriving");
                Thread.onSpinWait();
            }
            world.get(0).recv(in, 4, envelope.source(), 2);
            assertEquals(next[envelope.source()]++, in.getInt(0), "from rank " + envelope.source());
        }
    }
}
