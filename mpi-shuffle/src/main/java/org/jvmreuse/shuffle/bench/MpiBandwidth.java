package org.jvmreuse.shuffle.bench;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import mpi.Comm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * Raw point-to-point bandwidth of Open MPI's Java bindings, the ceiling an MPI shuffle can reach
 * on the machine it runs on. Exactly two ranks: rank 0 streams messages of one size to rank 1 in
 * each of three ways:
 * <ul>
 * <li>{@code blocking}: {@code send}/{@code recv} of direct {@link ByteBuffer}s (no copy in the
 * bindings);</li>
 * <li>{@code nonblocking}: {@code iSend}/{@code iRecv} of direct buffers, a window of
 * {@code --window} (default 4) messages outstanding on each side;</li>
 * <li>{@code heap}: blocking {@code send}/{@code recv} of {@code byte[]} (the bindings copy
 * between the Java heap and native memory).</li>
 * </ul>
 * Per mode and size: an untimed warm-up run (at least 8 messages and 64 MiB), untimed runs of
 * growing length until one lasts a fifth of {@code --seconds} (default 1), which calibrates how
 * many messages fill {@code --seconds}, then the timed run (repeated, re-calibrated, up to twice
 * more if it lasted less than half of {@code --seconds}), which ends when rank 0 receives rank 1's
 * acknowledgement of the last message. Every message carries its sequence number, which rank 1
 * checks. With
 * {@code --repeat N} (default 1) each measurement is taken N times (lines {@code bandwidth-run ...})
 * and the median is reported. Rank 0 prints one line per mode and size:
 * <pre>bandwidth mode=nonblocking size=1048576 runs=1 messages=9540 seconds=0.9697 MBps=10316.1 best=10316.1</pre>
 * where MBps (the median) and best are in 10^6 bytes per second, then a table. Run it as
 * {@code mpirun -np 2 .../exec-jvm java -Djava.library.path=<MPI_JAVA_LIBDIR> -cp <jar>:<mpi.jar>
 * org.jvmreuse.shuffle.bench.MpiBandwidth [--size BYTES[k|m]] [--mode MODE|all] [--seconds S]
 * [--window N] [--repeat N]}. Without {@code --size} it measures 64 KiB, 256 KiB, 1 MiB and 4 MiB;
 * without {@code --mode}, all three modes. (mpirun rewrites the arguments of a program named
 * {@code java}; job-scripts/lib/exec-jvm avoids that.)
 */
public final class MpiBandwidth {
    private static final int TAG_DATA = 1;
    private static final int TAG_CONTROL = 2;
    private static final long PHASE_WARMUP = 0;
    private static final long PHASE_CALIBRATE = 1;
    private static final long PHASE_TIMED = 2;
    private static final long PHASE_DONE = 3;
    private static final long WARMUP_BYTES = 64L << 20;
    private static final int WARMUP_MIN_MESSAGES = 8;
    private static final int[] DEFAULT_SIZES = {64 << 10, 256 << 10, 1 << 20, 4 << 20};
    private static final List<String> MODES = List.of("blocking", "nonblocking", "heap");

    private record Settings(int[] sizes, List<String> modes, double seconds, int window, int repeat) {
    }

    private record Result(String mode, int size, long messages, double seconds) {
        double mbps() {
            return (double) messages * size / seconds / 1e6;
        }
    }

    /** The timed runs of one mode and size; the reported figure is their median. */
    private record Measurement(String mode, int size, List<Result> runs) {
        double median() {
            double[] v = runs.stream().mapToDouble(Result::mbps).sorted().toArray();
            return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
        }

        double best() {
            return runs.stream().mapToDouble(Result::mbps).max().orElse(0);
        }

        long messages() {
            return runs.stream().mapToLong(Result::messages).sum();
        }

        double seconds() {
            return runs.stream().mapToDouble(Result::seconds).sum();
        }
    }

    private final Comm comm;
    private final int rank;
    private final int window;

    private MpiBandwidth(Comm comm, int rank, int window) {
        this.comm = comm;
        this.rank = rank;
        this.window = window;
    }

    public static void main(String[] args) throws MPIException {
        // one thread makes every MPI call, as in the pool's MpiTransport
        int provided = MPI.InitThread(args, MPI.THREAD_FUNNELED);
        Comm world = MPI.COMM_WORLD;
        int rank = world.getRank();
        int status = 0;
        try {
            Settings settings = parse(args);
            if (world.getSize() != 2) {
                if (rank == 0) {
                    System.err.println("MpiBandwidth: needs exactly 2 ranks (mpirun -np 2), got " + world.getSize());
                }
                status = 2;
            } else {
                if (rank == 0) {
                    System.out.printf(Locale.ROOT, "# MpiBandwidth: thread level %s, window %d, ~%.1f s per measurement, MB = 10^6 bytes%n",
                            threadLevel(provided), settings.window(), settings.seconds());
                    System.out.flush();
                }
                List<Measurement> results = new MpiBandwidth(world, rank, settings.window()).runAll(settings);
                if (rank == 0) {
                    printTable(results, settings);
                }
            }
        } catch (IllegalArgumentException e) {
            if (rank == 0) {
                System.err.println("MpiBandwidth: " + e.getMessage());
                System.err.println("usage: MpiBandwidth [--size BYTES[k|m]] [--mode blocking|nonblocking|heap|all]"
                        + " [--seconds S] [--window N] [--repeat N]");
            }
            status = 2;
        } catch (RuntimeException e) {
            // the other rank would wait for ever: take the whole job down
            System.err.println("MpiBandwidth: rank " + rank + " failed: " + e);
            world.abort(1);
        }
        MPI.Finalize();
        if (status != 0) {
            System.exit(status);
        }
    }

    private static Settings parse(String[] args) {
        int[] sizes = DEFAULT_SIZES;
        List<String> modes = MODES;
        double seconds = 1.0;
        int window = 4;
        int repeat = 1;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("missing value after " + arg);
            }
            String value = args[++i];
            switch (arg) {
                case "--size" -> sizes = new int[] {parseSize(value)};
                case "--mode" -> {
                    if (value.equals("all")) {
                        modes = MODES;
                    } else if (MODES.contains(value)) {
                        modes = List.of(value);
                    } else {
                        throw new IllegalArgumentException("unknown mode " + value);
                    }
                }
                case "--seconds" -> seconds = Double.parseDouble(value);
                case "--window" -> window = Integer.parseInt(value);
                case "--repeat" -> repeat = Integer.parseInt(value);
                default -> throw new IllegalArgumentException("unknown option " + arg);
            }
        }
        if (!(seconds > 0) || window < 1 || repeat < 1) {
            throw new IllegalArgumentException("--seconds must be > 0, --window and --repeat >= 1");
        }
        return new Settings(sizes, modes, seconds, window, repeat);
    }

    private static int parseSize(String value) {
        String v = value.toLowerCase(Locale.ROOT);
        long unit = 1;
        if (v.endsWith("k")) {
            unit = 1 << 10;
        } else if (v.endsWith("m")) {
            unit = 1 << 20;
        }
        long size = Long.parseLong(unit == 1 ? v : v.substring(0, v.length() - 1)) * unit;
        if (size < Long.BYTES || size > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("--size must be between 8 bytes and 2 GiB: " + value);
        }
        return (int) size;
    }

    private static String threadLevel(int provided) {
        if (provided == MPI.THREAD_MULTIPLE) {
            return "MULTIPLE";
        } else if (provided == MPI.THREAD_SERIALIZED) {
            return "SERIALIZED";
        } else if (provided == MPI.THREAD_FUNNELED) {
            return "FUNNELED";
        }
        return "SINGLE";
    }

    private List<Measurement> runAll(Settings settings) throws MPIException {
        List<Measurement> results = new ArrayList<>();
        for (int size : settings.sizes()) {
            for (String mode : settings.modes()) {
                List<Result> runs = new ArrayList<>();
                for (int run = 1; run <= settings.repeat(); run++) {
                    Result result = measure(mode, size, settings.seconds());
                    runs.add(result);
                    if (rank == 0 && settings.repeat() > 1) {
                        System.out.printf(Locale.ROOT, "bandwidth-run mode=%s size=%d run=%d messages=%d seconds=%.4f MBps=%.1f%n",
                                mode, size, run, result.messages(), result.seconds(), result.mbps());
                    }
                }
                Measurement m = new Measurement(mode, size, runs);
                if (rank == 0) {
                    results.add(m);
                    System.out.printf(Locale.ROOT, "bandwidth mode=%s size=%d runs=%d messages=%d seconds=%.4f MBps=%.1f best=%.1f%n",
                            mode, size, runs.size(), m.messages(), m.seconds(), m.median(), m.best());
                    System.out.flush();
                }
            }
        }
        return results;
    }

    /** One measurement: warm-up and calibration, then the timed run (only rank 0's time counts). */
    private Result measure(String mode, int size, double seconds) throws MPIException {
        ByteBuffer[] direct = new ByteBuffer[mode.equals("nonblocking") ? window : 1];
        byte[] heap = null;
        if (mode.equals("heap")) {
            heap = new byte[size];
        } else {
            for (int i = 0; i < direct.length; i++) {
                direct[i] = MPI.newByteBuffer(size);
            }
        }
        // Phases: a warm-up run (not used to calibrate: the JIT is cold), runs of growing length
        // until one takes a fifth of the time, then the timed run, repeated (re-calibrated) up to
        // twice more if it took less than half the time (a slow calibration run on a busy
        // machine). After each run rank 0 decides {count, phase} and tells rank 1.
        long[] next = {Math.max(WARMUP_MIN_MESSAGES, WARMUP_BYTES / size), PHASE_WARMUP};
        int timedRuns = 0;
        while (true) {
            comm.barrier();
            long count = next[0];
            double elapsed = transfer(mode, size, count, direct, heap);
            if (rank == 0) {
                long fill = Math.max(WARMUP_MIN_MESSAGES, Math.round(seconds * count / Math.max(elapsed, 1e-9)));
                if (next[1] == PHASE_WARMUP) {
                    next[1] = PHASE_CALIBRATE;
                } else if (next[1] == PHASE_CALIBRATE && elapsed >= seconds / 5) {
                    next[0] = fill;
                    next[1] = PHASE_TIMED;
                } else if (next[1] == PHASE_CALIBRATE) {
                    next[0] = count * Math.min(10, Math.max(2, Math.round(seconds / 4 / Math.max(elapsed, 1e-9))));
                } else if (elapsed < seconds / 2 && ++timedRuns < 3) {
                    next[0] = fill;
                } else {
                    next[1] = PHASE_DONE;
                }
                comm.send(next, 2, MPI.LONG, 1, TAG_CONTROL);
            } else {
                comm.recv(next, 2, MPI.LONG, 0, TAG_CONTROL);
            }
            if (next[1] == PHASE_DONE) {
                return new Result(mode, size, count, elapsed);
            }
        }
    }

    /** Streams {@code messages} messages from rank 0 to rank 1, waits for the ack; returns the seconds on rank 0. */
    private double transfer(String mode, int size, long messages, ByteBuffer[] direct, byte[] heap) throws MPIException {
        long[] ack = new long[1];
        double start = MPI.wtime();
        if (rank == 0) {
            switch (mode) {
                case "blocking" -> {
                    for (long seq = 0; seq < messages; seq++) {
                        direct[0].putLong(0, seq);
                        comm.send(direct[0], size, MPI.BYTE, 1, TAG_DATA);
                    }
                }
                case "nonblocking" -> {
                    Request[] pending = new Request[direct.length];
                    for (long seq = 0; seq < messages; seq++) {
                        int slot = (int) (seq % direct.length);
                        if (pending[slot] != null) {
                            pending[slot].waitFor();
                        }
                        direct[slot].putLong(0, seq);
                        pending[slot] = comm.iSend(direct[slot], size, MPI.BYTE, 1, TAG_DATA);
                    }
                    waitAll(pending);
                }
                default -> {
                    for (long seq = 0; seq < messages; seq++) {
                        putLong(heap, seq);
                        comm.send(heap, size, MPI.BYTE, 1, TAG_DATA);
                    }
                }
            }
            comm.recv(ack, 1, MPI.LONG, 1, TAG_CONTROL);
            double elapsed = MPI.wtime() - start;
            if (ack[0] != messages) {
                throw new IllegalStateException("rank 1 acknowledged " + ack[0] + " of " + messages + " messages");
            }
            return elapsed;
        }
        long received = 0;
        switch (mode) {
            case "blocking" -> {
                for (long seq = 0; seq < messages; seq++) {
                    comm.recv(direct[0], size, MPI.BYTE, 0, TAG_DATA);
                    received += check(direct[0].getLong(0), seq);
                }
            }
            case "nonblocking" -> {
                Request[] pending = new Request[direct.length];
                long posted = 0;
                for (; posted < Math.min(direct.length, messages); posted++) {
                    pending[(int) posted] = comm.iRecv(direct[(int) posted], size, MPI.BYTE, 0, TAG_DATA);
                }
                for (long seq = 0; seq < messages; seq++) {
                    int slot = (int) (seq % direct.length);
                    pending[slot].waitFor();
                    pending[slot] = null;
                    received += check(direct[slot].getLong(0), seq);
                    if (posted < messages) {
                        pending[slot] = comm.iRecv(direct[slot], size, MPI.BYTE, 0, TAG_DATA);
                        posted++;
                    }
                }
            }
            default -> {
                for (long seq = 0; seq < messages; seq++) {
                    comm.recv(heap, size, MPI.BYTE, 0, TAG_DATA);
                    received += check(getLong(heap), seq);
                }
            }
        }
        ack[0] = received;
        comm.send(ack, 1, MPI.LONG, 0, TAG_CONTROL);
        return MPI.wtime() - start;
    }

    private static void waitAll(Request[] pending) throws MPIException {
        for (Request request : pending) {
            if (request != null) {
                request.waitFor();
            }
        }
    }

    private static long check(long got, long expected) {
        if (got != expected) {
            throw new IllegalStateException("message " + expected + " arrived as " + got);
        }
        return 1;
    }

    private static void putLong(byte[] b, long v) {
        for (int i = 0; i < Long.BYTES; i++) {
            b[i] = (byte) (v >>> (8 * i));
        }
    }

    private static long getLong(byte[] b) {
        long v = 0;
        for (int i = 0; i < Long.BYTES; i++) {
            v |= (b[i] & 0xffL) << (8 * i);
        }
        return v;
    }

    private static void printTable(List<Measurement> results, Settings settings) {
        System.out.printf(Locale.ROOT, "%nOpen MPI Java bindings, rank 0 -> rank 1, MB/s (10^6 bytes/s)%s%n",
                settings.repeat() > 1 ? ", median of " + settings.repeat() + " runs" : "");
        StringBuilder header = new StringBuilder(String.format(Locale.ROOT, "%10s", "size"));
        for (String mode : settings.modes()) {
            header.append(String.format(Locale.ROOT, " %12s", mode));
        }
        System.out.println(header);
        for (int size : settings.sizes()) {
            StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "%10s", human(size)));
            for (String mode : settings.modes()) {
                for (Measurement m : results) {
                    if (m.size() == size && m.mode().equals(mode)) {
                        row.append(String.format(Locale.ROOT, " %12.1f", m.median()));
                    }
                }
            }
            System.out.println(row);
        }
        System.out.flush();
    }

    private static String human(int size) {
        if (size % (1 << 20) == 0) {
            return (size >> 20) + " MiB";
        } else if (size % (1 << 10) == 0) {
            return (size >> 10) + " KiB";
        }
        return size + " B";
    }
}
