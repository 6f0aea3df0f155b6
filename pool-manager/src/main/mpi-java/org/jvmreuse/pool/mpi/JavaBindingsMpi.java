package org.jvmreuse.pool.mpi;

import java.nio.ByteBuffer;
import mpi.MPI;
import mpi.MPIException;
import mpi.Status;

/**
 * The backend over Open MPI's Java bindings ({@code mpi.jar} and {@code libmpi_java}), as the
 * pool ran before the native backend existed. Compiled only where {@code mpi.jar} was installed
 * when the pool was built (the {@code mpi-java} profile of pool-manager/pom.xml); found by
 * {@link MpiBackends} by name. Open MPI removed these bindings in 6.0.
 */
public final class JavaBindingsMpi implements Mpi {
    @Override
    public String backend() {
        return "java-bindings";
    }

    @Override
    public String libraryVersion() {
        return call(() -> MPI.getLibVersion().lines().findFirst().orElse("Open MPI"));
    }

    @Override
    public int initThread(int required) {
        return call(() -> {
            int[] levels = {MPI.THREAD_SINGLE, MPI.THREAD_FUNNELED, MPI.THREAD_SERIALIZED, MPI.THREAD_MULTIPLE};
            int provided = MPI.InitThread(new String[0], levels[Math.max(0, Math.min(3, required))]);
            for (int i = 3; i > 0; i--) {
                if (provided == levels[i]) {
                    return i;
                }
            }
            return THREAD_SINGLE;
        });
    }

    @Override
    public int rank() {
        return call(() -> MPI.COMM_WORLD.getRank());
    }

    @Override
    public int size() {
        return call(() -> MPI.COMM_WORLD.getSize());
    }

    @Override
    public String processorName() {
        return call(MPI::getProcessorName);
    }

    @Override
    public byte[][] allGather(byte[] mine) {
        return call(() -> {
            int size = MPI.COMM_WORLD.getSize();
            int[] lengths = new int[size];
            MPI.COMM_WORLD.allGather(new int[] {mine.length}, 1, MPI.INT, lengths, 1, MPI.INT);
            int[] offsets = new int[size];
            int total = 0;
            for (int r = 0; r < size; r++) {
                offsets[r] = total;
                total += lengths[r];
            }
            byte[] all = new byte[Math.max(1, total)];
            MPI.COMM_WORLD.allGatherv(mine.length == 0 ? new byte[1] : mine, mine.length, MPI.BYTE, all, lengths, offsets, MPI.BYTE);
            byte[][] result = new byte[size][];
            for (int r = 0; r < size; r++) {
                result[r] = java.util.Arrays.copyOfRange(all, offsets[r], offsets[r] + lengths[r]);
            }
            return result;
        });
    }

    @Override
    public Request iSend(ByteBuffer direct, int count, int dest, int tag) {
        return wrap(call(() -> MPI.COMM_WORLD.iSend(direct, count, MPI.BYTE, dest, tag)));
    }

    @Override
    public Request iRecv(ByteBuffer direct, int count, int source, int tag) {
        return wrap(call(() -> MPI.COMM_WORLD.iRecv(direct, count, MPI.BYTE, source(source), tag(tag))));
    }

    @Override
    public Envelope iProbe(int source, int tag) {
        return call(() -> {
            Status status = MPI.COMM_WORLD.iProbe(source(source), tag(tag));
            return status == null ? null : new Envelope(status.getSource(), status.getTag(), status.getCount(MPI.BYTE));
        });
    }

    @Override
    public void recv(ByteBuffer direct, int count, int source, int tag) {
        call(() -> MPI.COMM_WORLD.recv(direct, count, MPI.BYTE, source(source), tag(tag)));
    }

    @Override
    public void abort(int code) {
        call(() -> {
            MPI.COMM_WORLD.abort(code);
            return null;
        });
    }

    @Override
    public void finish() {
        call(() -> {
            MPI.Finalize();
            return null;
        });
    }

    private static int source(int source) {
        return source < 0 ? MPI.ANY_SOURCE : source;
    }

    private static int tag(int tag) {
        return tag < 0 ? MPI.ANY_TAG : tag;
    }

    private static Request wrap(mpi.Request request) {
        return () -> call(request::test);
    }

    private interface Call<T> {
        T run() throws MPIException;
    }

    private static <T> T call(Call<T> call) {
        try {
            return call.run();
        } catch (MPIException e) {
            throw new MpiException(e.getMessage(), e);
        }
    }
}
