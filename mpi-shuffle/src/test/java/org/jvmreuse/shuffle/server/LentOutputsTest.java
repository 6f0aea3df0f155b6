package org.jvmreuse.shuffle.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class LentOutputsTest {
    private static final long NEVER = TimeUnit.HOURS.toNanos(1);

    /** Counts the give-backs of one lend; each yields once, to widen the window between a test and its removal. */
    private static final class GiveBack implements Runnable {
        final AtomicInteger runs = new AtomicInteger();

        @Override
        public void run() {
            runs.incrementAndGet();
            Thread.yield();
        }
    }

    /**
     * A release, a release of the whole request, the loss of the rank and the expiry all racing
     * for the same lends give each back exactly once: a second close could hit a reused descriptor.
     */
    @Test
    void eachLendIsGivenBackOnceUnderConcurrentReleaseAndExpiry() throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try {
            for (int round = 0; round < 300; round++) {
                try (LentOutputs lent = new LentOutputs(0, NEVER)) {
                    List<GiveBack> giveBacks = new ArrayList<>();
                    for (int offset = 0; offset < 20; offset++) {
                        GiveBack g = new GiveBack();
                        giveBacks.add(g);
                        lent.add(1, 7, offset, g);
                    }
                    CountDownLatch start = new CountDownLatch(1);
                    List<Runnable> racers = List.of(() -> lent.releaseAll(1, 7), lent::expire, () -> lent.releaseRank(1),
                            () -> {
                                for (int offset = 0; offset < 20; offset++) {
                                    lent.release(1, 7, offset);
                                }
                            });
                    List<Future<?>> done = new ArrayList<>();
                    for (Runnable racer : racers) {
                        done.add(threads.submit(() -> {
                            start.await();
                            racer.run();
                            return null;
                        }));
                    }
                    start.countDown();
                    for (Future<?> f : done) {
                        f.get(10, TimeUnit.SECONDS);
                    }
                    for (int offset = 0; offset < 20; offset++) {
                        assertEquals(1, giveBacks.get(offset).runs.get(), "round " + round + ", lend at " + offset);
                    }
                    assertEquals(0, lent.size());
                }
            }
        } finally {
            threads.shutdownNow();
        }
    }

    /** An expired lend is given back by the sweeper, with no request arriving to trigger it. */
    @Test
    void theSweeperGivesBackAnExpiredLendWithoutFurtherTraffic() throws Exception {
        try (LentOutputs lent = new LentOutputs(TimeUnit.MILLISECONDS.toNanos(50), TimeUnit.MILLISECONDS.toNanos(10))) {
            GiveBack g = new GiveBack();
            lent.add(1, 7, 0, g);
            assertSweptAlone(lent, g);
        }
    }

    /** Waits up to 5 s for the sweeper to give {@code g} back, then checks nothing else is lent. */
    private static void assertSweptAlone(LentOutputs lent, GiveBack g) throws InterruptedException {
        for (long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5); g.runs.get() == 0
                && System.nanoTime() < deadline; ) {
            Thread.sleep(10);
        }
        assertEquals(1, g.runs.get());
        assertEquals(0, lent.size());
    }

    /** A give-back that throws ends neither the sweeps nor the lend: the others are still given back. */
    @Test
    void aGiveBackThatFailsDoesNotEndTheSweeps() throws Exception {
        try (LentOutputs lent = new LentOutputs(TimeUnit.MILLISECONDS.toNanos(50), TimeUnit.MILLISECONDS.toNanos(10))) {
            for (int offset = 0; offset < 5; offset++) {
                lent.add(1, 7, offset, () -> {
                    throw new IllegalStateException("cannot unmap");
                });
            }
            GiveBack g = new GiveBack();
            lent.add(1, 7, 5, g);
            assertSweptAlone(lent, g);
        }
    }

    /** What was lent to a rank whose process ended goes at once; other ranks' lends stay. */
    @Test
    void theLendsOfALostRankAreGivenBack() {
        try (LentOutputs lent = new LentOutputs(NEVER, NEVER)) {
            GiveBack lost1 = new GiveBack();
            GiveBack lost2 = new GiveBack();
            GiveBack other = new GiveBack();
            lent.add(3, 1, 0, lost1);
            lent.add(3, 2, 4096, lost2);
            lent.add(4, 1, 0, other);
            lent.releaseRank(3);
            assertEquals(1, lost1.runs.get());
            assertEquals(1, lost2.runs.get());
            assertEquals(0, other.runs.get());
            assertEquals(1, lent.size());
        }
    }
}
