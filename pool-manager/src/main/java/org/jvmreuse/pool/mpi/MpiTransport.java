package org.jvmreuse.pool.mpi;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;
import mpi.Comm;
import org.jvmreuse.pool.PoolLog;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;

/**
 * Point-to-point messaging for one pool process. Exactly one thread, the one that calls
 * {@link #run}, makes MPI calls, so the pool needs no more than {@code MPI_THREAD_FUNNELED};
 * other threads hand messages over with {@link #send}. Sends are non-blocking, so two processes
 * sending to each other at once cannot deadlock. Polling is tight only while sends are in
 * flight (a large message needs rendezvous round trips) and briefly after a wake-up; otherwise
 * the thread sleeps on its {@link Doorbells}, which peers on the same host ring after sending.
 * Messages from peers without a doorbell are still found by the periodic poll.
 */
public final class MpiTransport {
    /** Receives every message; called on the communication thread, so it must not block. */
    public interface Handler {
        void onMessage(int source, int tag, byte[] payload) throws Exception;

        /** The process of {@code rank} on this host has ended (its doorbell closed). */
        void onPeerLost(int rank);

        /** Whether every peer that sends to this process rings its doorbell (then idle polls can be rare). */
        boolean everyPeerRings();
    }

    private record Outgoing(int dest, int tag, byte[] payload) {
    }

    private record InFlight(Request request, ByteBuffer buffer) {
    }

    private static final long HOT_PARK_NANOS = 20_000;
    private static final long HOT_WINDOW_NANOS = 300_000;
    private static final long IDLE_POLL_MILLIS = 1;
    private static final long DOORBELL_POLL_MILLIS = 50;

    private final Comm comm;
    private final Doorbells doorbells;
    private final ConcurrentLinkedQueue<Outgoing> outbox = new ConcurrentLinkedQueue<>();
    private final List<InFlight> inFlight = new ArrayList<>();
    private volatile Thread commThread;
    private volatile boolean running = true;

    public MpiTransport(Comm comm, Doorbells doorbells) {
        this.comm = comm;
        this.doorbells = doorbells;
    }

    public void send(int dest, int tag, byte[] payload) {
        outbox.add(new Outgoing(dest, tag, payload));
        wake();
    }

    /** Ends {@link #run} once everything queued has been sent. */
    public void stop() {
        running = false;
        wake();
    }

    private void wake() {
        LockSupport.unpark(commThread);
        doorbells.wakeSelf();
    }

    /** Runs the communication loop on the calling thread until {@link #stop}. */
    public void run(Handler handler) throws MPIException, IOException {
        commThread = Thread.currentThread();
        long lastTraffic = System.nanoTime();
        while (running || !outbox.isEmpty() || !inFlight.isEmpty()) {
            boolean progressed = startSends() | completeSends() | receive(handler);
            long now = System.nanoTime();
            if (progressed) {
                lastTraffic = now;
            } else if (!inFlight.isEmpty() || now - lastTraffic < HOT_WINDOW_NANOS) {
                LockSupport.parkNanos(HOT_PARK_NANOS);
            } else {
                doorbells.await(handler.everyPeerRings() ? DOORBELL_POLL_MILLIS : IDLE_POLL_MILLIS, handler::onPeerLost);
                lastTraffic = System.nanoTime();
            }
        }
    }

    private boolean startSends() throws MPIException {
        boolean any = false;
        for (Outgoing out; (out = outbox.poll()) != null; any = true) {
            ByteBuffer buffer = ByteBuffer.allocateDirect(Math.max(1, out.payload.length));
            buffer.put(out.payload).flip();
            inFlight.add(new InFlight(comm.iSend(buffer, out.payload.length, MPI.BYTE, out.dest, out.tag), buffer));
            doorbells.ring(out.dest);
        }
        return any;
    }

    private boolean completeSends() throws MPIException {
        int before = inFlight.size();
        for (int i = inFlight.size() - 1; i >= 0; i--) {
            if (inFlight.get(i).request.test()) {
                inFlight.remove(i);
            }
        }
        return inFlight.size() != before;
    }

    private boolean receive(Handler handler) throws MPIException {
        Status status = comm.iProbe(MPI.ANY_SOURCE, MPI.ANY_TAG);
        if (status == null) {
            return false;
        }
        int count = status.getCount(MPI.BYTE);
        byte[] payload = new byte[count];
        comm.recv(payload, count, MPI.BYTE, status.getSource(), status.getTag());
        try {
            handler.onMessage(status.getSource(), status.getTag(), payload);
        } catch (Exception e) {
            PoolLog.get().error("handling MPI message with tag " + status.getTag() + " from rank "
                    + status.getSource() + " failed", e);
        }
        return true;
    }
}
