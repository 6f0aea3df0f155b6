package org.jvmreuse.pool.slot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jvmreuse.pool.common.Faults;
import org.jvmreuse.pool.mpi.Doorbells;
import org.jvmreuse.pool.mpi.InProcessMpi;
import org.jvmreuse.pool.mpi.Mpi;
import org.jvmreuse.pool.mpi.MpiTransport;
import org.jvmreuse.pool.mpi.NoMessages;
import org.jvmreuse.pool.mpi.Tags;
import org.jvmreuse.pool.mpi.Wire;

/**
 * DONE gets out of a heap that a run left full (its arrays kept in a shared library's static,
 * as ContainmentTest's run does in a real pool): in a JVM of its own with a small heap, a
 * program fills the heap to its last bytes while it holds the pool's reserve, as a run's program
 * does, and the slot's report of the run's end must still reach the manager. Nothing is
 * injected: the heap is full.
 */
class RunReportTest {
    @TempDir
    Path dir;

    /** The communication loop idles on while the heap fills, meeting out-of-memory errors of its own. */
    @Test
    void doneReachesTheManagerWhenTheLoopRanOutOfMemoryMeanwhile() throws Exception {
        assertDoneReachesTheManager("loop-meanwhile");
    }

    /** DONE is the first thing that needs memory after the run (the loop starts only once it is queued). */
    @Test
    void doneReachesTheManagerWhenItIsTheFirstToRunOutOfMemory() throws Exception {
        assertDoneReachesTheManager("loop-after");
    }

    private void assertDoneReachesTheManager(String mode) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path output = dir.resolve("output");
        Process child = new ProcessBuilder(java, "-Xms32m", "-Xmx32m", "-cp", System.getProperty("java.class.path"),
                FullHeap.class.getName(), mode).redirectErrorStream(true).redirectOutput(output.toFile()).start();
        boolean ended = child.waitFor(60, TimeUnit.SECONDS);
        child.destroyForcibly();
        String printed = Files.readString(output, StandardCharsets.UTF_8);
        assertTrue(ended, "the child did not end: " + printed);
        assertEquals(0, child.exitValue(), printed);
        assertTrue(printed.contains("the manager got DONE of run 7: exit 1, started"), printed);
    }

    /**
     * The child: a slot's transport and report (rank 1), its manager (rank 0), and a heap filled
     * in between; the slot's communication loop runs meanwhile or only once DONE is queued.
     */
    static final class FullHeap {
        private static Object hoard;

        public static void main(String[] args) throws Exception {
            List<InProcessMpi> world = InProcessMpi.world(2);
            MpiTransport transport = new MpiTransport(world.get(1), new Doorbells());
            CountDownLatch go = new CountDownLatch(1);
            Thread loop = new Thread(() -> {
                try {
                    go.await();
                    transport.run(new NoMessages(false));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            loop.setDaemon(true); // an error that ends main ends the child
            loop.start();
            boolean meanwhile = args[0].equals("loop-meanwhile");
            if (meanwhile) {
                go.countDown();
            }
            RunReport report = new RunReport(transport, 0);
            Faults.hold(true); // the run's program runs
            fill();
            Faults.hold(false); // it has ended, and left the heap full
            report.done(7, 1, true, null);
            go.countDown();
            transport.stop();
            loop.join();
            hoard = null;
            Mpi.Envelope envelope = world.get(0).iProbe(1, Tags.DONE);
            if (envelope == null) {
                System.out.println("the manager got no DONE");
                System.exit(2);
            }
            ByteBuffer message = ByteBuffer.allocateDirect(envelope.count());
            world.get(0).recv(message, envelope.count(), 1, Tags.DONE);
            byte[] payload = new byte[envelope.count()];
            message.get(payload);
            DataInputStream done = Wire.reader(payload);
            System.out.println("the manager got DONE of run " + done.readLong() + ": exit " + done.readInt()
                    + (done.readBoolean() ? ", started" : ", not started"));
        }

        /** Keeps ever smaller arrays until not even a byte more fits. */
        private static void fill() {
            for (int size = 1 << 20; size > 0; size >>= 1) {
                try {
                    while (true) {
                        hoard = new Object[] {hoard, new byte[size]};
                    }
                } catch (OutOfMemoryError full) {
                    // smaller ones next
                }
            }
        }
    }
}
