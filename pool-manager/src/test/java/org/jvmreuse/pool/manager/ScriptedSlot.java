package org.jvmreuse.pool.manager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.jvmreuse.pool.admission.SlotProfile;
import org.jvmreuse.pool.admission.TestProfiles;
import org.jvmreuse.pool.mpi.Doorbells;
import org.jvmreuse.pool.mpi.Mpi;
import org.jvmreuse.pool.mpi.MpiTransport;
import org.jvmreuse.pool.mpi.Tags;
import org.jvmreuse.pool.mpi.Wire;
import org.jvmreuse.pool.protocol.Frame;
import org.jvmreuse.pool.protocol.FrameChannel;
import org.jvmreuse.pool.protocol.RunSpec;

/**
 * A slot rank that does what a test says instead of running programs: it sends the messages a
 * real slot (SlotRuntime, TaskRun) sends, on its own {@link MpiTransport}, and keeps what the
 * manager sends it for the test to check.
 */
final class ScriptedSlot implements MpiTransport.Handler, AutoCloseable {
    /** A message from the manager. */
    record Received(int tag, long runId, byte[] payload) {
        RunSpec spec() throws IOException {
            return RunSpec.decode(Wire.body(payload));
        }

        /** The second int of a SIGNAL. */
        int signal() throws IOException {
            var in = Wire.reader(payload);
            in.readLong();
            return in.readInt();
        }
    }

    private final int rank;
    private final int managerRank;
    /** This slot's doorbell key, which the manager learns as PoolMain's exchange over MPI would teach it. */
    final String doorbellKey = Doorbells.newKey();
    private final Doorbells doorbells = new Doorbells();
    private final MpiTransport transport;
    private final BlockingQueue<Received> inbox = new LinkedBlockingQueue<>();
    private final Thread thread;
    private volatile SocketChannel doorbell;

    ScriptedSlot(Mpi mpi, int managerRank) {
        this.rank = mpi.rank();
        this.managerRank = managerRank;
        this.transport = new MpiTransport(mpi, doorbells);
        this.thread = new Thread(() -> {
            try {
                transport.run(this);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, "scripted-slot-" + rank);
        thread.setDaemon(true);
        thread.start();
    }

    int rank() {
        return rank;
    }

    /** As SlotRuntime.connectDoorbell: the connection's end-of-file tells the manager this slot died. */
    void connectDoorbell(Path socket) throws IOException {
        SocketChannel channel = SocketChannel.open(UnixDomainSocketAddress.of(socket));
        new FrameChannel(channel).write(new Frame("doorbell").add("rank", rank).add("key", doorbellKey));
        doorbells.attach(managerRank, channel);
        doorbell = channel;
    }

    void hello() {
        hello(TestProfiles.slot());
    }

    /** Ready, started as {@code profile} says. */
    void hello(SlotProfile profile) {
        send(Tags.HELLO, Wire.longAndBytes(0, 1000 + rank, profile.encode()));
    }

    void started(long runId) {
        send(Tags.STARTED, Wire.ints(runId));
    }

    void done(long runId, int exitCode) {
        send(Tags.DONE, Wire.intFlagAndText(runId, exitCode, true, ""));
    }

    void free(long runId) {
        send(Tags.FREE, Wire.ints(runId));
    }

    /** A run's whole life as a slot reports it: started, done with {@code exitCode}, clean-up finished. */
    void finishRun(long runId, int exitCode) {
        started(runId);
        done(runId, exitCode);
        free(runId);
    }

    void retire(String reason) {
        send(Tags.RETIRE, Wire.text(0, reason));
    }

    void send(int tag, byte[] payload) {
        transport.send(managerRank, tag, payload);
    }

    /** The process ends: its MPI loop stops and its doorbell closes. */
    void die() throws IOException, InterruptedException {
        transport.stop();
        thread.join(Await.PATIENCE.toMillis());
        SocketChannel channel = doorbell;
        if (channel != null) {
            channel.close();
        }
    }

    /** The next message from the manager, which must have {@code tag}. */
    Received next(int tag) throws InterruptedException {
        Received message = inbox.poll(Await.PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
        assertNotNull(message, "rank " + rank + " got no message with tag " + tag + " within " + Await.PATIENCE);
        assertEquals(tag, message.tag(), "tag of the message rank " + rank + " got");
        return message;
    }

    /** The next LAUNCH, whose program must be {@code mainClass}; its run id. */
    long nextLaunch(String mainClass) throws InterruptedException, IOException {
        Received launch = next(Tags.LAUNCH);
        assertEquals(mainClass, launch.spec().mainClass(), "program launched on rank " + rank);
        return launch.runId();
    }

    /** Checks that nothing arrives for {@code quiet}: for what must not happen (a LAUNCH, a SHUTDOWN). */
    void assertNothingFor(Duration quiet) throws InterruptedException {
        Received message = inbox.poll(quiet.toMillis(), TimeUnit.MILLISECONDS);
        assertNull(message, "rank " + rank + " got an unexpected message");
    }

    /** How many messages arrive until none has for {@code quiet}; each must have {@code tag}. */
    int countUntilQuiet(int tag, Duration quiet) throws InterruptedException {
        int count = 0;
        for (Received m; (m = inbox.poll(quiet.toMillis(), TimeUnit.MILLISECONDS)) != null; count++) {
            assertEquals(tag, m.tag(), "tag of a message rank " + rank + " got");
        }
        return count;
    }

    @Override
    public void onMessage(int source, int tag, byte[] payload) throws IOException {
        inbox.add(new Received(tag, Wire.reader(payload).readLong(), payload));
    }

    @Override
    public void onPeerLost(int lost) {
        // the test decides what this slot does
    }

    @Override
    public boolean everyPeerRings() {
        return doorbells.has(managerRank);
    }

    @Override
    public void close() throws IOException, InterruptedException {
        die();
        doorbells.close();
    }
}
