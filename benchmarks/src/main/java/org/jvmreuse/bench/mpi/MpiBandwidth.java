package org.jvmreuse.bench.mpi;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jvmreuse.pool.mpi.Mpi;
import org.jvmreuse.pool.mpi.MpiBackends;

/**
 * Raw point-to-point bandwidth of the pool's MPI backend ({@link MpiBackends}: the native one or
 * Open MPI's Java bindings), the ceiling an MPI shuffle can reach on the machine it runs on.
 * Exactly two ranks: rank 0 streams messages of one size to rank 1 in each of two ways:
 * <ul>
 * <li>{@code blocking}: a send completed before the next starts, received with a blocking
 * {@code recv}, of direct {@link ByteBuffer}s;</li>
 * <li>{@code nonblocking}: {@code iSend}/{@code iRecv} of direct buffers, a window of
 * {@code --window} (default 4) messages outstanding on each side.</li>
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
 * {@code mpirun -np 2 .../exec-jvm java <the backend's options, see pool.sh> -cp <benchmarks
 * jar>:<pool jar> org.jvmreuse.bench.mpi.MpiBandwidth [--size BYTES[k|m]] [--mode MODE|all]
 * [--seconds S] [--window N] [--repeat N]} (job-scripts/lib/core/pool.sh's
 * {@code jvmreuse_mpi_program_command} builds that command). It uses the pool jar's public MPI
 * API only, on the class path: no pool module, no agent. Without {@code --size} it measures 64 KiB, 256 KiB, 1 MiB and 4 MiB;
 * without {@code --mode}, both modes. (mpirun rewrites the arguments of a program named
 * {@code java}; job-scripts/lib/core/exec-jvm avoids that.)
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
    private static final List<String> MODES = List.of("blocking", "nonblocking");

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

    private final Mpi mpi;
    private final int rank;
    private final int window;
    private final ByteBuffer control = ByteBuffer.allocateDirect(2 * Long.BYTES);

    private MpiBandwidth(Mpi mpi, int rank, int window) {
        this.mpi = mpi;
        this.rank = rank;
        this.window = window;
    }

    public static void main(String[] args) {
        // one thread makes every MPI call, as in the pool's MpiTransport
        Mpi mpi = MpiBackends.open();
        int provided = mpi.initThread(Mpi.THREAD_FUNNELED);
        int rank = mpi.rank();
        int status = 0;
        try {
            Settings settings = parse(args);
            if (mpi.size() != 2) {
                if (rank == 0) {
                    System.err.println("MpiBandwidth: needs exactly 2 ranks (mpirun -np 2), got " + mpi.size());
                }
                status = 2;
            } else {
                String backend = mpi.backend() + " backend, " + mpi.libraryVersion();
                if (rank == 0) {
                    System.out.printf(Locale.ROOT, "# MpiBandwidth: %s, thread level %s, window %d, ~%.1f s per measurement, MB = 10^6 bytes%n",
                            backend, Mpi.threadLevelName(provided), settings.window(), settings.seconds());
                    System.out.flush();
                }
                List<Measurement> results = new MpiBandwidth(mpi, rank, settings.window()).runAll(settings);
                if (rank == 0) {
                    printTable(results, settings, backend);
                }
            }
        } catch (IllegalArgumentException e) {
            if (rank == 0) {
                System.err.println("MpiBandwidth: " + e.getMessage());
                System.err.println("usage: MpiBandwidth [--size BYTES[k|m]] [--mode blocking|nonblocking|all]"
                        + " [--seconds S] [--window N] [--repeat N]");
            }
            status = 2;
        } catch (RuntimeException e) {
            // the other rank would wait for ever: take the whole job down
            System.err.println("MpiBandwidth: rank " + rank + " failed: " + e);
            mpi.abort(1);
        }
        mpi.finish();
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
                        throw new IllegalArgumentException("unknown mode " + value + " (blocking, nonblocking or all)");
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

    private List<Measurement> runAll(Settings settings) {
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
    private Result measure(String mode, int size, double seconds) {
        ByteBuffer[] direct = new ByteBuffer[mode.equals("nonblocking") ? window : 1];
        for (int i = 0; i < direct.length; i++) {
            direct[i] = ByteBuffer.allocateDirect(size);
        }
        // Phases: a warm-up run (not used to calibrate: the JIT is cold), runs of growing length
        // until one takes a fifth of the time, then the timed run, repeated (re-calibrated) up to
        // twice more if it took less than half the time (a slow calibration run on a busy
        // machine). After each run rank 0 decides {count, phase} and tells rank 1.
        long[] next = {Math.max(WARMUP_MIN_MESSAGES, WARMUP_BYTES / size), PHASE_WARMUP};
        int timedRuns = 0;
        while (true) {
            mpi.allGather(new byte[0]); // a barrier
            long count = next[0];
            double elapsed = transfer(mode, size, count, direct);
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
                control.putLong(0, next[0]).putLong(Long.BYTES, next[1]);
                mpi.iSend(control, 2 * Long.BYTES, 1, TAG_CONTROL).await();
            } else {
                mpi.recv(control, 2 * Long.BYTES, 0, TAG_CONTROL);
                next[0] = control.getLong(0);
                next[1] = control.getLong(Long.BYTES);
            }
            if (next[1] == PHASE_DONE) {
                return new Result(mode, size, count, elapsed);
            }
        }
    }

    /** Streams {@code messages} messages from rank 0 to rank 1, waits for the ack; returns the seconds on rank 0. */
    private double transfer(String mode, int size, long messages, ByteBuffer[] direct) {
        long start = System.nanoTime();
        if (rank == 0) {
            Mpi.Request[] pending = new Mpi.Request[direct.length];
            for (long seq = 0; seq < messages; seq++) {
                int slot = (int) (seq % direct.length);
                if (pending[slot] != null) {
                    pending[slot].await();
                }
                direct[slot].putLong(0, seq);
                pending[slot] = mpi.iSend(direct[slot], size, 1, TAG_DATA);
                if (mode.equals("blocking")) {
                    pending[slot].await();
                }
            }
            for (Mpi.Request request : pending) {
                if (request != null) {
                    request.await();
                }
            }
            mpi.recv(control, Long.BYTES, 1, TAG_CONTROL);
            double elapsed = (System.nanoTime() - start) / 1e9;
            if (control.getLong(0) != messages) {
                throw new IllegalStateException("rank 1 acknowledged " + control.getLong(0) + " of " + messages + " messages");
            }
            return elapsed;
        }
        long received = 0;
        if (mode.equals("blocking")) {
            for (long seq = 0; seq < messages; seq++) {
                mpi.recv(direct[0], size, 0, TAG_DATA);
                received += check(direct[0].getLong(0), seq);
            }
        } else {
            Mpi.Request[] pending = new Mpi.Request[direct.length];
            long posted = 0;
            for (; posted < Math.min(direct.length, messages); posted++) {
                pending[(int) posted] = mpi.iRecv(direct[(int) posted], size, 0, TAG_DATA);
            }
            for (long seq = 0; seq < messages; seq++) {
                int slot = (int) (seq % direct.length);
                pending[slot].await();
                received += check(direct[slot].getLong(0), seq);
                if (posted < messages) {
                    pending[slot] = mpi.iRecv(direct[slot], size, 0, TAG_DATA);
                    posted++;
                }
            }
        }
        control.putLong(0, received);
        mpi.iSend(control, Long.BYTES, 0, TAG_CONTROL).await();
        return (System.nanoTime() - start) / 1e9;
    }

    private static long check(long got, long expected) {
        if (got != expected) {
            throw new IllegalStateException("message " + expected + " arrived as " + got);
        }
        return 1;
    }

    private static void printTable(List<Measurement> results, Settings settings, String backend) {
        System.out.printf(Locale.ROOT, "%n%s, rank 0 -> rank 1, MB/s (10^6 bytes/s)%s%n", backend,
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
