package org.jvmreuse.pool.mpi;

import java.nio.ByteBuffer;

/**
 * The native backend: JNI over the MPI C API (pool-manager/src/main/c/jvmreuse_mpi.c), compiled
 * with the site's {@code mpicc}, so it runs on any MPI with a C ABI (Open MPI 4 to 6, MPICH and
 * its derivatives, vendor MPIs). Buffers are passed by address, never copied. The probe result
 * goes into an array kept here, so an idle poll allocates nothing.
 */
final class NativeMpi implements Mpi {
    private final int[] envelope = new int[3];

    NativeMpi(String library) {
        System.load(library);
    }

    @Override
    public String backend() {
        return MpiBackends.NATIVE;
    }

    @Override
    public String libraryVersion() {
        return nLibraryVersion();
    }

    @Override
    public int initThread(int required) {
        return nInitThread(required);
    }

    @Override
    public int rank() {
        return nRank();
    }

    @Override
    public int size() {
        return nSize();
    }

    @Override
    public String processorName() {
        return nProcessorName();
    }

    @Override
    public byte[][] allGather(byte[] mine) {
        return nAllGather(mine);
    }

    @Override
    public Request iSend(ByteBuffer direct, int count, int dest, int tag) {
        return new NativeRequest(nISend(checked(direct, count), count, dest, tag), direct);
    }

    @Override
    public Request iRecv(ByteBuffer direct, int count, int source, int tag) {
        return new NativeRequest(nIRecv(checked(direct, count), count, source, tag), direct);
    }

    @Override
    public Envelope iProbe(int source, int tag) {
        return nIProbe(source, tag, envelope) ? new Envelope(envelope[0], envelope[1], envelope[2]) : null;
    }

    @Override
    public void recv(ByteBuffer direct, int count, int source, int tag) {
        nRecv(checked(direct, count), count, source, tag);
    }

    @Override
    public void abort(int code) {
        nAbort(code);
    }

    @Override
    public void finish() {
        nFinalize();
    }

    private static ByteBuffer checked(ByteBuffer buffer, int count) {
        if (!buffer.isDirect()) {
            throw new IllegalArgumentException("MPI buffers must be direct");
        }
        if (count < 0 || count > buffer.capacity()) {
            throw new IllegalArgumentException("count " + count + " outside a buffer of " + buffer.capacity() + " bytes");
        }
        return buffer;
    }

    /** An MPI_Request in native memory; the buffer is held until the request completes. */
    private static final class NativeRequest implements Request {
        private long handle;
        private ByteBuffer buffer;

        NativeRequest(long handle, ByteBuffer buffer) {
            this.handle = handle;
            this.buffer = buffer;
        }

        @Override
        public boolean test() {
            if (handle != 0 && nTest(handle)) {
                handle = 0; // freed by nTest
                buffer = null;
            }
            return handle == 0;
        }
    }

    private static native String nLibraryVersion();

    private static native int nInitThread(int required);

    private static native int nRank();

    private static native int nSize();

    private static native String nProcessorName();

    private static native byte[][] nAllGather(byte[] mine);

    private static native long nISend(ByteBuffer buffer, int count, int dest, int tag);

    private static native long nIRecv(ByteBuffer buffer, int count, int source, int tag);

    private static native boolean nTest(long request);

    private static native boolean nIProbe(int source, int tag, int[] envelope);

    private static native void nRecv(ByteBuffer buffer, int count, int source, int tag);

    private static native void nAbort(int code);

    private static native void nFinalize();
}
