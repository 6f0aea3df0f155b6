package org.jvmreuse.pool.mpi;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.OptionalInt;

/**
 * MPI for unit tests: the ranks of one world are threads of this JVM, each with its own
 * instance. Point-to-point messages follow MPI's rules: a send copies the bytes at once (eager,
 * so its request has completed when {@link #iSend} returns), a receive takes the earliest
 * matching message, and messages from one rank to another never overtake each other. An
 * {@link #abort} ends the world: every later communicating call of any rank, and every call
 * blocked in one, throws {@link MpiException}. Rank, size and names stay readable throughout.
 * {@link #initThread} is optional here. One lock guards the world: tests move little data.
 */
public final class InProcessMpi implements Mpi {
    public static final String BACKEND = "in-process";

    private final World world;
    private final int rank;
    private volatile boolean finished;

    private InProcessMpi(World world, int rank) {
        this.world = world;
        this.rank = rank;
    }

    /** A world of {@code size} ranks, all on host {@code localhost}. */
    public static List<InProcessMpi> world(int size) {
        return world(Collections.nCopies(size, "localhost"));
    }

    /** A world with one rank per entry, each on the host named there ({@link #processorName}). */
    public static List<InProcessMpi> world(List<String> hostOfRank) {
        if (hostOfRank.isEmpty()) {
            throw new IllegalArgumentException("a world needs at least one rank");
        }
        World world = new World(List.copyOf(hostOfRank));
        List<InProcessMpi> ranks = new ArrayList<>();
        for (int r = 0; r < hostOfRank.size(); r++) {
            ranks.add(new InProcessMpi(world, r));
        }
        return List.copyOf(ranks);
    }

    /** The code the world was aborted with, if any rank called {@link #abort}. */
    public OptionalInt abortCode() {
        synchronized (world) {
            return world.abortCode == null ? OptionalInt.empty() : OptionalInt.of(world.abortCode);
        }
    }

    /** Whether this rank has called {@link #finish}. */
    public boolean finished() {
        return finished;
    }

    @Override
    public String backend() {
        return BACKEND;
    }

    @Override
    public String libraryVersion() {
        return "in-process MPI (threads of one JVM)";
    }

    @Override
    public int initThread(int required) {
        synchronized (world) {
            checkUsable("MPI_Init_thread");
        }
        return Math.max(THREAD_SINGLE, Math.min(required, THREAD_MULTIPLE));
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return world.hosts.size();
    }

    @Override
    public String processorName() {
        return world.hosts.get(rank);
    }

    @Override
    public byte[][] allGather(byte[] mine) {
        synchronized (world) {
            checkUsable("MPI_Allgather");
            // Generations keep a fast rank's next allGather apart from the one still completing.
            long generation = world.gatherGeneration;
            if (world.gathering[rank] != null) {
                throw new MpiException("MPI_Allgather: rank " + rank + " joined the same collective twice");
            }
            world.gathering[rank] = mine.clone();
            if (++world.gathered == size()) {
                world.gatherResult = world.gathering;
                world.gathering = new byte[size()][];
                world.gathered = 0;
                world.gatherGeneration++;
                world.notifyAll();
            }
            while (world.gatherGeneration == generation) {
                waitOn("MPI_Allgather");
            }
            byte[][] copy = new byte[size()][];
            for (int r = 0; r < copy.length; r++) {
                copy[r] = world.gatherResult[r].clone();
            }
            return copy;
        }
    }

    @Override
    public Request iSend(ByteBuffer direct, int count, int dest, int tag) {
        checkBuffer(direct, count);
        checkRank(dest, "MPI_Isend");
        if (tag < 0) {
            throw new MpiException("MPI_Isend: invalid tag " + tag);
        }
        byte[] data = new byte[count];
        direct.get(0, data);
        Message message = new Message(rank, tag, data);
        synchronized (world) {
            checkUsable("MPI_Isend");
            // A receive already posted and matching takes the message; otherwise it waits in
            // the destination's queue, behind everything sent there before it.
            for (Iterator<PostedReceive> it = world.posted.get(dest).iterator(); it.hasNext(); ) {
                PostedReceive receive = it.next();
                if (receive.matches(message)) {
                    it.remove();
                    receive.deliver(message);
                    return COMPLETED;
                }
            }
            world.queues.get(dest).addLast(message);
            world.notifyAll();
        }
        return COMPLETED;
    }

    @Override
    public Request iRecv(ByteBuffer direct, int count, int source, int tag) {
        checkBuffer(direct, count);
        checkSource(source, "MPI_Irecv");
        PostedReceive receive = new PostedReceive(direct, count, source, tag);
        synchronized (world) {
            checkUsable("MPI_Irecv");
            Message message = take(source, tag);
            if (message != null) {
                receive.deliver(message);
            } else {
                world.posted.get(rank).addLast(receive);
            }
        }
        return receive;
    }

    @Override
    public Envelope iProbe(int source, int tag) {
        checkSource(source, "MPI_Iprobe");
        synchronized (world) {
            checkUsable("MPI_Iprobe");
            for (Message message : world.queues.get(rank)) {
                if (matches(message, source, tag)) {
                    return new Envelope(message.source, message.tag, message.data.length);
                }
            }
            return null;
        }
    }

    @Override
    public void recv(ByteBuffer direct, int count, int source, int tag) {
        checkBuffer(direct, count);
        checkSource(source, "MPI_Recv");
        Message message;
        synchronized (world) {
            checkUsable("MPI_Recv");
            while ((message = take(source, tag)) == null) {
                waitOn("MPI_Recv");
            }
        }
        copyInto(direct, count, message, "MPI_Recv");
    }

    /** Unlike MPI_Abort, returns: a thread cannot be killed. Every rank's later calls fail. */
    @Override
    public void abort(int code) {
        synchronized (world) {
            if (world.abortCode == null) {
                world.abortCode = code;
            }
            world.notifyAll();
        }
    }

    @Override
    public void finish() {
        synchronized (world) {
            checkUsable("MPI_Finalize");
            finished = true;
        }
    }

    @Override
    public String toString() {
        return "in-process rank " + rank + " of " + size() + " on " + processorName();
    }

    /** Removes and returns the earliest message to this rank that matches; the world's lock is held. */
    private Message take(int source, int tag) {
        for (Iterator<Message> it = world.queues.get(rank).iterator(); it.hasNext(); ) {
            Message message = it.next();
            if (matches(message, source, tag)) {
                it.remove();
                return message;
            }
        }
        return null;
    }

    private static boolean matches(Message message, int source, int tag) {
        return (source == ANY_SOURCE || source == message.source) && (tag == ANY_TAG || tag == message.tag);
    }

    /** Waits for the world to change; the world's lock is held. */
    private void waitOn(String call) {
        try {
            world.wait();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MpiException(call + " on rank " + rank + " was interrupted");
        }
        checkUsable(call);
    }

    /** The world's lock is held. */
    private void checkUsable(String call) {
        if (world.abortCode != null) {
            throw new MpiException(call + " on rank " + rank + ": the world was aborted with code " + world.abortCode);
        }
        if (finished) {
            throw new MpiException(call + " on rank " + rank + ": called after MPI_Finalize");
        }
    }

    private void checkRank(int r, String call) {
        if (r < 0 || r >= size()) {
            throw new MpiException(call + ": invalid rank " + r + " in a world of " + size());
        }
    }

    private void checkSource(int source, String call) {
        if (source != ANY_SOURCE) {
            checkRank(source, call);
        }
    }

    /** The same checks as the native backend's, so that tests catch what a real MPI would. */
    private static void checkBuffer(ByteBuffer buffer, int count) {
        if (!buffer.isDirect()) {
            throw new IllegalArgumentException("MPI buffers must be direct");
        }
        if (count < 0 || count > buffer.capacity()) {
            throw new IllegalArgumentException("count " + count + " outside a buffer of " + buffer.capacity() + " bytes");
        }
    }

    private static void copyInto(ByteBuffer direct, int count, Message message, String call) {
        if (message.data.length > count) {
            throw new MpiException(call + ": message of " + message.data.length + " bytes from rank " + message.source
                    + " truncated to " + count + " (MPI_ERR_TRUNCATE)");
        }
        direct.put(0, message.data);
    }

    private record Message(int source, int tag, byte[] data) {
    }

    private static final Request COMPLETED = () -> true;

    /** An iRecv not yet matched; the sender that matches it fills its buffer. */
    private final class PostedReceive implements Request {
        private final ByteBuffer buffer;
        private final int count;
        private final int source;
        private final int tag;
        private volatile boolean done;
        private volatile MpiException failure;

        PostedReceive(ByteBuffer buffer, int count, int source, int tag) {
            this.buffer = buffer;
            this.count = count;
            this.source = source;
            this.tag = tag;
        }

        boolean matches(Message message) {
            return InProcessMpi.matches(message, source, tag);
        }

        void deliver(Message message) {
            try {
                copyInto(buffer, count, message, "MPI_Irecv");
            } catch (MpiException e) {
                failure = e;
            }
            done = true; // volatile: the buffer's contents are visible to whoever sees it
        }

        @Override
        public boolean test() {
            if (!done) {
                synchronized (world) {
                    checkUsable("MPI_Test");
                }
                return done;
            }
            if (failure != null) {
                throw failure;
            }
            return true;
        }
    }

    /** What the ranks of one world share. Guarded by itself. */
    private static final class World {
        final List<String> hosts;
        /** Per destination rank: messages sent and not yet received, in arrival order. */
        final List<Deque<Message>> queues = new ArrayList<>();
        /** Per receiving rank: iRecvs posted and not yet matched, in posting order. */
        final List<Deque<PostedReceive>> posted = new ArrayList<>();
        byte[][] gathering;
        int gathered;
        long gatherGeneration;
        byte[][] gatherResult;
        Integer abortCode;

        World(List<String> hosts) {
            this.hosts = hosts;
            for (int r = 0; r < hosts.size(); r++) {
                queues.add(new ArrayDeque<>());
                posted.add(new ArrayDeque<>());
            }
            gathering = new byte[hosts.size()][];
        }
    }
}
