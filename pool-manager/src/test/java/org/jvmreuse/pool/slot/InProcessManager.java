package org.jvmreuse.pool.slot;

import java.io.DataInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.jvmreuse.pool.mpi.Mpi;
import org.jvmreuse.pool.mpi.Tags;
import org.jvmreuse.pool.mpi.Wire;

/**
 * The manager's end of an {@link InProcessSlot}'s runs, at its rank of the in-process MPI world:
 * what the slot's {@link RunReport} tells it (STARTED, DONE), and the signals it passes on.
 */
final class InProcessManager {
    private static final long RECEIVE_MILLIS = 10_000;

    /** What DONE says: the exit code, whether the run started, and why the pool could not run it (null if it could). */
    record Done(int exitCode, boolean started, String failure) {
    }

    private final Mpi mpi;
    private final int slot;

    InProcessManager(Mpi mpi, int slot) {
        this.mpi = mpi;
        this.slot = slot;
    }

    void signal(long runId, int signal) {
        byte[] payload = Wire.ints(runId, signal);
        mpi.iSend(ByteBuffer.allocateDirect(payload.length).put(payload).flip(), payload.length, slot, Tags.SIGNAL);
    }

    /** The DONE of run {@code runId}, once its slot has sent it (and its STARTED, if it started). */
    Done done(long runId) throws IOException, InterruptedException {
        DataInputStream done = Wire.reader(receive(Tags.DONE));
        checkRun(runId, done.readLong(), "DONE");
        Done answer = new Done(done.readInt(), done.readBoolean(), done.readUTF());
        if (answer.started()) {
            checkRun(runId, Wire.reader(receive(Tags.STARTED)).readLong(), "STARTED");
        }
        return answer.failure().isEmpty() ? new Done(answer.exitCode(), answer.started(), null) : answer;
    }

    private static void checkRun(long expected, long got, String what) {
        if (got != expected) {
            throw new IllegalStateException(what + " of run " + got + " while waiting for run " + expected);
        }
    }

    private byte[] receive(int tag) throws InterruptedException {
        for (long deadline = System.currentTimeMillis() + RECEIVE_MILLIS; System.currentTimeMillis() < deadline; Thread.sleep(1)) {
            Mpi.Envelope envelope = mpi.iProbe(slot, tag);
            if (envelope != null) {
                ByteBuffer buffer = ByteBuffer.allocateDirect(envelope.count());
                mpi.recv(buffer, envelope.count(), slot, tag);
                byte[] payload = new byte[envelope.count()];
                buffer.get(payload);
                return payload;
            }
        }
        throw new IllegalStateException("the slot sent no message with tag " + tag + " within " + RECEIVE_MILLIS + " ms");
    }
}
