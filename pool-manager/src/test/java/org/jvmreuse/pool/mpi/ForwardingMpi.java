package org.jvmreuse.pool.mpi;

import java.nio.ByteBuffer;

/**
 * An {@link Mpi} that does what the in-process MPI it wraps does; a test overrides only the calls
 * it changes (a send that fails, a probe it counts, a peer that never receives).
 */
abstract class ForwardingMpi implements Mpi {
    protected final InProcessMpi mpi;

    protected ForwardingMpi(InProcessMpi mpi) {
        this.mpi = mpi;
    }

    @Override public String backend() { return mpi.backend(); }
    @Override public String libraryVersion() { return mpi.libraryVersion(); }
    @Override public int initThread(int required) { return mpi.initThread(required); }
    @Override public int rank() { return mpi.rank(); }
    @Override public int size() { return mpi.size(); }
    @Override public String processorName() { return mpi.processorName(); }
    @Override public byte[][] allGather(byte[] mine) { return mpi.allGather(mine); }
    @Override public Request iSend(ByteBuffer direct, int count, int dest, int tag) { return mpi.iSend(direct, count, dest, tag); }
    @Override public Request iRecv(ByteBuffer b, int n, int source, int tag) { return mpi.iRecv(b, n, source, tag); }
    @Override public Envelope iProbe(int source, int tag) { return mpi.iProbe(source, tag); }
    @Override public void recv(ByteBuffer b, int n, int source, int tag) { mpi.recv(b, n, source, tag); }
    @Override public void abort(int code) { mpi.abort(code); }
    @Override public void finish() { mpi.finish(); }
}
