package org.jvmreuse.pool.mpi;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import org.jvmreuse.pool.common.Faults;
import org.jvmreuse.pool.common.PoolLog;

/**
 * Point-to-point messaging for one pool process. Exactly one thread, the one that calls
 * {@link #run}, makes MPI calls, so the pool needs no more than {@code MPI_THREAD_FUNNELED};
 * other threads hand messages over with {@link #send}. Sends are non-blocking, so two processes
 * sending to each other at once cannot deadlock. Polling is tight only while sends are in
 * flight (a large message needs rendezvous round trips), until the messages its doorbell rang
 * for have been received (MPI may surface a message a few progress calls after its sender's
 * ring), and, if some peer cannot ring, briefly after traffic; otherwise the thread sleeps on
 * its {@link Doorbells}, which peers on the same host ring once per message they send. While it
 * waits only for transfers with other hosts (a large message from there is received with a
 * posted receive, not a blocking one), its polls back off to a millisecond: such a transfer takes
 * milliseconds, and spinning through it cost a core (docs/shuffle.md).
 * Messages from peers without a doorbell are still found by the periodic poll. Service messages
 * ({@link Tags#SERVICE}: shuffle requests and data, between any two ranks of the launch) go to
 * the service receiver. Every slot has a doorbell with each manager on its host, its own pool's
 * and the others' (whose Shuffle Managers serve it), so service traffic between them is rung for
 * like any other; only for a while after service traffic with a peer that has no doorbell here
 * (a process on another node) does the loop poll briskly, as that peer cannot wake it. Nothing
 * that happens while handling one message, peer or service ends the loop: a {@code Throwable}
 * fails that message, and one that may have damaged the JVM is reported to the handler (a slot
 * then retires).
 */
public final class MpiTransport {
    /** Receives every message; called on the communication thread, so it must not block. */
    public interface Handler {
        void onMessage(int source, int tag, byte[] payload) throws Exception;

        /** The process of {@code rank} on this host has ended (its doorbell closed). */
        void onPeerLost(int rank);

        /** Whether every peer that sends to this process rings its doorbell (then idle polls can be rare). */
        boolean everyPeerRings();

        /**
         * Handling a received message failed with {@code failure} (logged already); {@code runId}
         * is the run the message was about, if any. A slot answers a run it could not take.
         */
        default void onMessageFailed(int source, int tag, long runId, Throwable failure) {
        }

        /** An error that may have damaged this JVM ({@link Faults#damaging}) reached the loop. */
        default void onFault(Throwable fault) {
        }
    }

    /**
     * {@code lent}, if not null, is sent right after {@code payload}; MPI done with it, it goes to
     * {@code done}. {@code taken}, if not null, runs once MPI has taken {@code payload}.
     */
    private record Outgoing(int dest, int tag, ByteBuffer payload, ByteBuffer lent, Consumer<ByteBuffer> done,
                            Runnable taken) {
    }

    /**
     * {@code done}: where a lent buffer goes once sent; null for the transport's own buffers.
     * {@code service}: the last part of a service message, whose end frees its place in the bound.
     * {@code taken}: see {@link Outgoing}.
     */
    private record InFlight(int dest, Mpi.Request request, ByteBuffer buffer, Consumer<ByteBuffer> done,
                            boolean service, Runnable taken) {
    }

    /** How long {@link #sendAndAwait} waits for MPI to take a message at most. */
    private static final long TAKEN_WAIT_MILLIS = 5_000;
    /** Open MPI's selected pml, once found in this process's maps ("" until then, and under other MPIs). */
    private volatile String pml = "";

    /**
     * Service messages to one rank queued or in flight at most: a peer that stops receiving (a
     * stuck reducer) cannot make this process hold ever more. The pool's own messages are few by
     * protocol (a handful per run) and never refused.
     */
    static final int MAX_SERVICE_PENDING = 4096;

    private static final long HOT_PARK_NANOS = 20_000;
    /**
     * A message from another host at least this long is received with a posted receive
     * ({@link PostedReceives}); a shorter one is whole when probed (Open MPI's TCP eager limit).
     */
    static final int POSTED_RECEIVE_BYTES = 64 * 1024;
    private static final long HOT_WINDOW_NANOS = 300_000;
    /**
     * How long after a ring the loop polls for the message rung for, at least (in time, and in
     * probes for a thread that gets little CPU): MPI may surface a message only in a later
     * progress call than the first probe after its sender's ring.
     */
    private static final long RUNG_WINDOW_NANOS = 2_000_000;
    private static final int RUNG_PROBES = 64;
    private static final long IDLE_POLL_MILLIS = 1;
    private static final long DOORBELL_POLL_MILLIS = 50;
    private static final long SERVICE_PARK_MAX_NANOS = 1_000_000;
    private static final long SERVICE_WINDOW_NANOS = 200_000_000;
    /** After a fault the loop pauses, so that one that repeats (a message memory cannot hold yet) does not spin. */
    private static final long FAULT_PAUSE_NANOS = 1_000_000;
    private static final long FAULT_LOG_NANOS = 1_000_000_000;
    /** While sends are in flight the loop does not sleep on the doorbells, but looks at them this often. */
    private static final long BUSY_DOORBELL_CHECK_NANOS = 10_000_000;
    private static final long STOP_DRAIN_MILLIS = 5_000;

    private final Mpi mpi;
    private final Doorbells doorbells;
    private final ConcurrentLinkedQueue<Outgoing> outbox = new ConcurrentLinkedQueue<>();
    private final ArrayList<InFlight> inFlight = new ArrayList<>();
    /**
     * A message taken from the outbox that MPI does not have yet, wholly or its lent buffer
     * ({@link #lentLeft}); comm thread only. An out-of-memory error while handing it over (a
     * slot's DONE after a run that left the heap full) leaves it here for the next round.
     */
    private Outgoing starting;
    private boolean lentLeft;
    private final DirectBuffers buffers = new DirectBuffers();
    private final PostedReceives posted = new PostedReceives();
    private final Map<Integer, AtomicInteger> servicePending = new ConcurrentHashMap<>();
    private volatile BiConsumer<Integer, ByteBuffer> serviceReceiver;
    private volatile IntConsumer serviceLost = rank -> { };
    /** The last service message to or from a peer that cannot ring this process (one on another host). */
    private volatile long lastRemoteService = System.nanoTime() - SERVICE_WINDOW_NANOS;
    private volatile Thread commThread;
    private volatile boolean running = true;
    private volatile boolean serving;
    private long lastFaultLogged = System.nanoTime() - FAULT_LOG_NANOS;
    private int faultsNotLogged;
    private final long stopDrainNanos;
    private volatile long stoppedAt;
    private long lastDoorbellCheck = System.nanoTime();
    /**
     * Rings heard less messages received from peers that ring (each rings once per message it
     * sends here): above 0, a message rung for has not surfaced yet.
     */
    private int rung;
    /** Empty probes since the last ring while a message rung for was awaited. */
    private int rungProbes;
    /**
     * Whether this round of the loop has taken a message, a send or a peer's end into its hands
     * (comm thread only). A fault before that left nothing half done.
     */
    private boolean handling;

    public MpiTransport(Mpi mpi, Doorbells doorbells) {
        this(mpi, doorbells, STOP_DRAIN_MILLIS);
    }

    /** {@code stopDrainMillis}: how long {@link #stop} waits for sends in flight (tests shorten it). */
    MpiTransport(Mpi mpi, Doorbells doorbells, long stopDrainMillis) {
        this.mpi = mpi;
        this.doorbells = doorbells;
        this.stopDrainNanos = TimeUnit.MILLISECONDS.toNanos(stopDrainMillis);
    }

    public void send(int dest, int tag, byte[] payload) {
        send(dest, tag, ByteBuffer.wrap(payload));
    }

    /**
     * Sends the bytes from 0 to the limit of {@code payload}. A direct buffer, such as one from
     * {@link #buffer}, is taken over (sent in place, then reused); a heap buffer is copied first.
     * A service message beyond {@link #MAX_SERVICE_PENDING} to its rank is refused with an
     * {@link IllegalStateException}.
     */
    public void send(int dest, int tag, ByteBuffer payload) {
        enqueue(dest, tag, payload, null, null, null);
    }

    /**
     * Sends as {@link #send} does and returns once MPI has taken the message: its send has
     * completed (to a process on this host, the bytes are then in shared memory and outlive this
     * process), its peer has ended, or {@link #TAKEN_WAIT_MILLIS} have passed (an MPI that cannot
     * send a few bytes in that time is broken). A slot sends STARTED so before the program runs:
     * should the slot die then, its manager must know that the run started.
     */
    public void sendAndAwait(int dest, int tag, byte[] payload) throws InterruptedException {
        CountDownLatch taken = new CountDownLatch(1);
        enqueue(dest, tag, ByteBuffer.wrap(payload), null, null, taken::countDown);
        if (!taken.await(TAKEN_WAIT_MILLIS, TimeUnit.MILLISECONDS)) {
            PoolLog.get().warn("MPI did not take a message with tag " + tag + " to rank " + dest + " within "
                    + TAKEN_WAIT_MILLIS + " ms; going on");
        }
    }

    private void enqueue(int dest, int tag, ByteBuffer payload, ByteBuffer lent, Consumer<ByteBuffer> done,
                         Runnable taken) {
        boolean service = tag == Tags.SERVICE;
        if (service) {
            reserve(dest);
        }
        try {
            outbox.add(new Outgoing(dest, tag, direct(payload), lent, done, taken));
        } catch (RuntimeException | Error e) {
            if (service) {
                unreserve(dest); // no direct memory for the copy: the message was not queued
            }
            throw e;
        }
        wake();
    }

    private void reserve(int dest) {
        AtomicInteger pending = servicePending.computeIfAbsent(dest, d -> new AtomicInteger());
        if (pending.incrementAndGet() > MAX_SERVICE_PENDING) {
            pending.decrementAndGet();
            throw new IllegalStateException(MAX_SERVICE_PENDING + " service messages to rank " + dest
                    + " are queued or in flight already: it does not receive");
        }
    }

    private void unreserve(int dest) {
        servicePending.get(dest).decrementAndGet();
    }

    private ByteBuffer direct(ByteBuffer payload) {
        if (payload.isDirect()) {
            return payload;
        }
        ByteBuffer direct = buffers.take(payload.limit());
        direct.put(payload.duplicate().position(0)).flip();
        return direct;
    }

    /**
     * Sends {@code payload} as {@link #send} does and {@code lent} right after it, as one unit:
     * no other message of this process to {@code dest} comes between them (MPI keeps the order
     * of one sender's messages on one tag). {@code lent}, a direct buffer such as a mapped file
     * region, is sent in place from 0 to its limit and never reused here: once MPI no longer
     * reads it, it goes to {@code done} on the communication thread. A send dropped because its
     * peer ended never reaches {@code done} (MPI may still hold the buffer). The pair counts as
     * one message in the bound of {@link #send}.
     */
    public void send(int dest, int tag, ByteBuffer payload, ByteBuffer lent, Consumer<ByteBuffer> done) {
        if (!lent.isDirect()) {
            throw new IllegalArgumentException("a lent buffer must be direct");
        }
        enqueue(dest, tag, payload, lent, done, null);
    }

    /** A reusable direct buffer with position 0 and limit {@code size}, for {@link #send}. */
    public ByteBuffer buffer(int size) {
        return buffers.take(size);
    }

    /** Gives back a received service message once read (unreleased buffers are left to the collector). */
    public void release(ByteBuffer message) {
        buffers.give(message);
    }

    /**
     * Who gets {@link Tags#SERVICE} messages, each in a direct buffer (position 0, limit its
     * length) that is the receiver's until it hands it to {@link #release}. Called on the
     * communication thread; must not block.
     */
    public void setServiceReceiver(BiConsumer<Integer, ByteBuffer> receiver) {
        this.serviceReceiver = receiver;
    }

    /** Who is told of a peer on this host whose process ended (on the communication thread; must not block). */
    public void setServiceLost(IntConsumer lost) {
        this.serviceLost = lost;
    }

    /** Whether {@code rank} is a pool process on this host: one with a doorbell here. */
    public boolean isLocal(int rank) {
        return doorbells.has(rank);
    }

    /**
     * The MPI under this transport, for logs and status: backend, library and, under Open MPI, the
     * pml it selected ({@code , pml ucx}; read once it is known, see {@link OpenMpiPml}).
     */
    public String describe() {
        String p = pml;
        if (p.isEmpty()) {
            p = OpenMpiPml.of(Path.of("/proc/self/maps"));
            pml = p;
        }
        return mpi.backend() + " backend, " + mpi.libraryVersion() + (p.isEmpty() ? "" : ", pml " + p);
    }

    /** Whether {@link #run} has started: start-up is over and this process serves. */
    public boolean serving() {
        return serving;
    }

    /**
     * Ends {@link #run} once everything queued has been sent, or after {@link #STOP_DRAIN_MILLIS}
     * for sends that do not complete (their peer is gone; MPI has no way to cancel a send).
     */
    public void stop() {
        stoppedAt = System.nanoTime();
        running = false;
        wake();
    }

    private void wake() {
        LockSupport.unpark(commThread);
        doorbells.wakeSelf();
    }

    /**
     * Runs the communication loop on the calling thread until {@link #stop}. The thread is named
     * {@code mpi-comm}, so that per-thread CPU counts (thread-cpu.sh) tell it from a slot's task
     * threads, which are named {@code main} as in a JVM of its own.
     */
    public void run(Handler handler) throws IOException {
        commThread = Thread.currentThread();
        commThread.setName("mpi-comm");
        serving = true;
        long lastTraffic = System.nanoTime();
        while (running || System.nanoTime() - stoppedAt < stopDrainNanos
                && (starting != null || !outbox.isEmpty() || !inFlight.isEmpty())) {
            try {
                handling = false;
                lastTraffic = step(handler, lastTraffic);
            } catch (Throwable fault) {
                // Leaving the loop would end this rank with everything it serves.
                met(handler, fault);
                pause();
            }
        }
        if (starting != null || !outbox.isEmpty()) {
            PoolLog.get().warn("message(s) still queued " + TimeUnit.NANOSECONDS.toMillis(stopDrainNanos)
                    + " ms after the stop were never handed to MPI (out of memory); dropped");
        }
        if (!inFlight.isEmpty()) {
            PoolLog.get().warn(inFlight.size() + " send(s) to rank(s) " + destinations()
                    + " did not complete within " + TimeUnit.NANOSECONDS.toMillis(stopDrainNanos)
                    + " ms of the stop; left to MPI (their peers are gone or stuck)");
        }
    }

    /**
     * The loop's breath after a fault. Never throws either: in a heap a run filled, the first
     * park of a JVM whose threads never parked before initialises LockSupport, which runs out of
     * memory (RunReportTest caught the loop ending there, about one child in six).
     */
    private static void pause() {
        try {
            LockSupport.parkNanos(FAULT_PAUSE_NANOS);
        } catch (Throwable full) {
            // the loop goes on at once
        }
    }

    /**
     * A fault of the loop: logged, and reported if it may have damaged the JVM. Never throws: in
     * a full heap this can run out of memory too (the first call of a method links it, which may
     * load classes), and that must not end the loop either.
     */
    private void met(Handler handler, Throwable fault) {
        try {
            Faults.caught(fault);
            logFault(fault);
            if (Faults.damaging(fault) && !outOfMemoryWhileIdle(fault)) {
                report(handler, fault);
            }
        } catch (Throwable again) {
            // nothing more to do for it: the loop goes on
        }
    }

    /**
     * An allocation of the idle loop (a probe, a wait) that failed because a run filled the heap
     * changed nothing here: the loop goes on, and whether the heap is still full is the slot's
     * after-run check to judge, as for any run.
     */
    private boolean outOfMemoryWhileIdle(Throwable fault) {
        if (handling || !(fault instanceof OutOfMemoryError)) {
            return false;
        }
        PoolLog.get().warn("the communication loop ran out of memory while idle; nothing was in hand, so nothing was lost");
        return true;
    }

    private List<Integer> destinations() {
        return inFlight.stream().map(InFlight::dest).distinct().sorted().toList();
    }

    /**
     * A peer process on this host has ended: sends to it will never complete. They are dropped
     * (their buffers are not reused, MPI may still hold them) so that the loop can go idle again.
     * What it sent before it ended is handled first: its doorbell's end can be read before the
     * messages it rang for, and the manager must know whether a run reached STARTED.
     */
    private void peerLost(Handler handler, int rank) {
        handling = true;
        while (receive(handler, rank)) {
            // each message the peer left, in the order it sent them
        }
        int before = inFlight.size();
        inFlight.removeIf(f -> f.dest == rank && dropped(f));
        if (inFlight.size() != before) {
            PoolLog.get().warn("dropped " + (before - inFlight.size()) + " send(s) in flight to rank " + rank
                    + ", which has ended");
        }
        handler.onPeerLost(rank);
        serviceLost.accept(rank);
    }

    private boolean dropped(InFlight send) {
        if (send.service) {
            unreserve(send.dest);
        }
        if (send.taken != null) {
            send.taken.run();
        }
        return true;
    }

    /** One round: start and complete sends, receive one message, or wait; the time of the last traffic. */
    private long step(Handler handler, long lastTraffic) throws IOException {
        boolean progressed = startSends() | completeSends() | posted.complete((envelope, message) -> deliver(handler,
                envelope, message)) | receive(handler);
        long now = System.nanoTime();
        if (progressed) {
            return now;
        } else if (!inFlight.isEmpty() || posted.count() > 0
                || rung > 0 && (now - lastTraffic < RUNG_WINDOW_NANOS || rungProbes++ < RUNG_PROBES)
                || !handler.everyPeerRings() && now - lastTraffic < HOT_WINDOW_NANOS) {
            // Transfers in flight need our progress calls; a message rung for has not surfaced
            // yet; after traffic, a peer that cannot ring may answer soon (one that can rings
            // when it does: no need to look for it).
            if (now - lastDoorbellCheck > BUSY_DOORBELL_CHECK_NANOS) {
                // A send to a peer that died never completes: the loop must still hear of the death.
                lastDoorbellCheck = now;
                rung += doorbells.check(rank -> peerLost(handler, rank));
            }
            // Only transfers with other hosts to wait for: they take milliseconds on a real link,
            // and the kernel's socket buffers carry them between our progress calls.
            LockSupport.parkNanos(onlyRemoteWaits() ? remotePark(now - lastTraffic) : HOT_PARK_NANOS);
        } else if (now - lastRemoteService < SERVICE_WINDOW_NANOS) {
            // A peer on another host may answer soon and cannot ring: backs off from the hot
            // poll to at most a millisecond, so that waiting for a peer on a busy node costs
            // little CPU; chunks in flight hide the delay.
            LockSupport.parkNanos(remotePark(now - lastTraffic));
        } else {
            int heard = doorbells.await(handler.everyPeerRings() ? DOORBELL_POLL_MILLIS : IDLE_POLL_MILLIS,
                    rank -> peerLost(handler, rank));
            // Woken by no ring (the time passed, or a send of this process), nothing is owed.
            rung = heard == 0 ? 0 : rung + heard;
            rungProbes = 0;
            return System.nanoTime();
        }
        return lastTraffic;
    }

    /** The poll's pause while only peers on other hosts are waited for: grows with the wait, to a millisecond. */
    private static long remotePark(long waited) {
        return Math.min(SERVICE_PARK_MAX_NANOS, Math.max(HOT_PARK_NANOS, waited / 8));
    }

    /** Whether nothing waited for is with a peer that rings (one on this host, whose transfers take microseconds). */
    private boolean onlyRemoteWaits() {
        if (rung > 0) {
            return false;
        }
        for (int i = 0; i < inFlight.size(); i++) {
            if (doorbells.has(inFlight.get(i).dest())) {
                return false;
            }
        }
        return true;
    }

    /**
     * Logs a fault of the loop; one that repeats is logged at most once a second, with a count. A
     * line that cannot be made for lack of memory is lost, and the fault still judged.
     */
    private void logFault(Throwable fault) {
        long now = System.nanoTime();
        if (now - lastFaultLogged < FAULT_LOG_NANOS) {
            faultsNotLogged++;
            return;
        }
        try {
            String repeats = faultsNotLogged == 0 ? "" : " (" + faultsNotLogged + " more since the last one logged)";
            PoolLog.get().error("the communication loop met a fault; it goes on" + repeats, fault);
        } catch (OutOfMemoryError lost) {
            return;
        }
        lastFaultLogged = now;
        faultsNotLogged = 0;
    }

    private static void report(Handler handler, Throwable fault) {
        try {
            handler.onFault(fault);
        } catch (Throwable again) {
            Faults.caught(again);
            PoolLog.get().error("handling a fault failed", again);
        }
    }

    private boolean startSends() {
        boolean any = false;
        for (Outgoing out; (out = nextToStart()) != null; any = true) {
            handling = true;
            try {
                handOver(out);
            } catch (RuntimeException | Error e) {
                if (!(e instanceof OutOfMemoryError)) {
                    starting = null; // one MPI refuses is dropped: only memory can come back
                    lentLeft = false;
                }
                throw e;
            }
            starting = null;
            if (out.lent != null) {
                doorbells.ring(out.dest); // once per message: the receiver counts them
            }
            if (out.tag == Tags.SERVICE) {
                serviceTraffic(out.dest);
            }
            doorbells.ring(out.dest);
        }
        return any;
    }

    private Outgoing nextToStart() {
        if (starting == null) {
            starting = outbox.poll();
        }
        return starting;
    }

    /**
     * Hands {@code out}'s payload, then its lent buffer, to MPI. The list has room for both parts
     * first, and a part's record and the native backend's request are allocated before MPI has
     * the part: an out-of-memory error leaves the part MPI does not have to the next round, and
     * none is sent twice (the Java bindings make their request after the send).
     */
    private void handOver(Outgoing out) {
        inFlight.ensureCapacity(inFlight.size() + 2);
        boolean service = out.tag == Tags.SERVICE;
        if (!lentLeft) {
            ByteBuffer buffer = out.payload;
            inFlight.add(new InFlight(out.dest, mpi.iSend(buffer, buffer.limit(), out.dest, out.tag), buffer, null,
                    service && out.lent == null, out.taken));
            lentLeft = out.lent != null;
        }
        if (lentLeft) {
            inFlight.add(new InFlight(out.dest, mpi.iSend(out.lent, out.lent.limit(), out.dest, out.tag), out.lent,
                    out.done, service, null));
            lentLeft = false;
        }
    }

    /** Service traffic with {@code peer}: the loop polls for a while only if that peer cannot ring it. */
    private void serviceTraffic(int peer) {
        if (!doorbells.has(peer)) {
            lastRemoteService = System.nanoTime();
        }
    }

    private boolean completeSends() {
        int before = inFlight.size();
        for (int i = inFlight.size() - 1; i >= 0; i--) {
            if (inFlight.get(i).request.test()) {
                handling = true;
                InFlight sent = inFlight.remove(i);
                if (sent.service) {
                    unreserve(sent.dest);
                }
                if (sent.taken != null) {
                    sent.taken.run();
                }
                if (sent.done == null) {
                    buffers.give(sent.buffer);
                } else {
                    sent.done.accept(sent.buffer);
                }
            }
        }
        return inFlight.size() != before;
    }

    private boolean receive(Handler handler) {
        return receive(handler, Mpi.ANY_SOURCE);
    }

    /**
     * Receives and hands on one message from {@code from} (or any rank), or posts its receive (a
     * large one from a peer that cannot ring, or one behind a receive posted from its rank:
     * {@link PostedReceives}); false if none is there.
     */
    private boolean receive(Handler handler, int from) {
        Mpi.Envelope envelope = mpi.iProbe(from, Mpi.ANY_TAG);
        if (envelope == null) {
            return false;
        }
        handling = true;
        // Received in place into a reused direct buffer: service messages (shuffle data) are
        // handed on as they are, the pool's own small ones are copied out.
        ByteBuffer message = buffers.take(envelope.count());
        int source = envelope.source();
        boolean rings = doorbells.has(source);
        if (rings) {
            rung--; // below 0 when the message came before its ring was read
        }
        if (posted.waitingFrom(source) || !rings && envelope.count() >= POSTED_RECEIVE_BYTES) {
            posted.post(mpi, envelope, message);
            return true;
        }
        mpi.recv(message, envelope.count(), source, envelope.tag());
        deliver(handler, envelope, message);
        return true;
    }

    /** Hands a received message on: a service message to the service receiver, the pool's own to the handler. */
    private void deliver(Handler handler, Mpi.Envelope envelope, ByteBuffer message) {
        handling = true;
        if (envelope.tag() == Tags.SERVICE) {
            serviceTraffic(envelope.source());
            deliverService(envelope.source(), message);
            return;
        }
        int source = envelope.source();
        int tag = envelope.tag();
        long runId = envelope.count() >= Long.BYTES ? message.getLong(0) : 0;
        try {
            byte[] payload = new byte[envelope.count()];
            message.get(payload);
            handler.onMessage(source, tag, payload);
        } catch (Throwable failure) {
            Faults.caught(failure);
            PoolLog.get().error("handling MPI message with tag " + tag + " from rank " + source + " failed", failure);
            handler.onMessageFailed(source, tag, runId, failure);
            if (Faults.damaging(failure)) {
                report(handler, failure);
            }
        } finally {
            buffers.give(message);
        }
    }

    private void deliverService(int source, ByteBuffer message) {
        BiConsumer<Integer, ByteBuffer> receiver = serviceReceiver;
        if (receiver == null) {
            PoolLog.get().warn("dropping a service message from rank " + source + ": nothing here receives them");
            buffers.give(message);
        } else {
            receiver.accept(source, message);
        }
    }
}
