package org.jvmreuse.shuffle.reduce;

import java.io.DataOutputStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32;
import java.util.zip.CheckedOutputStream;
import org.apache.hadoop.mapreduce.security.token.JobTokenSecretManager;
import org.jvmreuse.shuffle.protocol.Announcement;
import org.jvmreuse.shuffle.protocol.Messages;
import org.jvmreuse.shuffle.protocol.RequestHash;
import org.jvmreuse.shuffle.server.JobSecrets;

/**
 * Benchmark entry point (job-scripts/bench/mpi-shuffle-transport.sh): the MPI shuffle's own
 * transport, without Hadoop's merge. {@code prepare DIR BYTES} writes a one-partition map output
 * where a NodeManager with local dir DIR keeps it; {@code fetch BYTES REPEAT [MODE CHUNK WINDOW]},
 * run in a pool slot whose manager runs the Shuffle Manager over DIR, pulls that segment over MPI
 * REPEAT times and prints the median and best MB/s and the CPU time of the pulling thread (which
 * copies every byte out of the received chunks, as a reducer's fetcher does), checking every
 * byte count ({@code -Djvmreuse.shuffle.direct} and {@code -Djvmreuse.shuffle.direct-files} as
 * for a job, default true): in both modes
 * with chunks of 256 KiB, 1 MiB and 4 MiB (window 4 in concurrent mode), or only as given. After
 * each result a {@code paths} line tells which Shuffle Manager rank served, whether it is on this
 * slot's host, and the bytes of all pulls by the way they came, named as the reducer's counters
 * ({@link PathCounters}, e.g. {@code MPI_MESSAGE_BYTES_OTHER_HOST}). It pulls from the first
 * Shuffle Manager of the rank directory, or with {@code -Dfetchbench.server=other-host} from the
 * first on another host (a launch across hosts).
 *
 * <p>It lives in the benchmarks module, not in the mpi-shuffle jar, but keeps the reducer's
 * package: it drives package-private classes ({@link SlotLink}, {@link SegmentStream},
 * {@link PathCounters}) that are no API. So the benchmarks jar goes on the same class path as the
 * mpi-shuffle jar, both on a run's shared class path ({@code --shared-cp}), so that one loader
 * defines both halves of the package.
 */
public final class FetchBench {
    static final String JOB = "job_1000000000000_0001";
    static final String MAP = "attempt_1000000000000_0001_m_000000_0";
    /** The benchmark job's shuffle secret, recorded by {@code prepare} as a NodeManager would. */
    private static final byte[] SECRET = "fetch-bench-shuffle-secret".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private FetchBench() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 3 && args[0].equals("prepare")) {
            prepare(Path.of(args[1]), Long.parseLong(args[2]));
        } else if (args.length == 3 && args[0].equals("fetch")) {
            for (Messages.Mode mode : Messages.Mode.values()) {
                for (int chunk : new int[] {256 << 10, 1 << 20, 4 << 20}) {
                    fetch(Long.parseLong(args[1]), Integer.parseInt(args[2]), mode, chunk,
                            mode == Messages.Mode.BLOCKING ? 1 : 4);
                }
            }
        } else if (args.length == 6 && args[0].equals("fetch")) {
            Messages.Mode mode = Messages.Mode.valueOf(args[3].toUpperCase(java.util.Locale.ROOT));
            fetch(Long.parseLong(args[1]), Integer.parseInt(args[2]), mode, Integer.parseInt(args[4]),
                    mode == Messages.Mode.BLOCKING ? 1 : Integer.parseInt(args[5]));
        } else {
            System.err.println("usage: FetchBench prepare LOCAL_DIR BYTES | fetch BYTES REPEAT [blocking|concurrent CHUNK WINDOW]");
            System.exit(2);
        }
    }

    private static void prepare(Path localDir, long bytes) throws IOException {
        Path dir = localDir.resolve("usercache/" + System.getProperty("user.name")
                + "/appcache/application_1000000000000_0001/output/" + MAP);
        Files.createDirectories(dir);
        try (RandomAccessFile out = new RandomAccessFile(dir.resolve("file.out").toFile(), "rw")) {
            byte[] block = new byte[1 << 20];
            new java.util.Random(1).nextBytes(block);
            out.setLength(0);
            for (long written = 0; written < bytes; written += block.length) {
                out.write(block, 0, (int) Math.min(block.length, bytes - written));
            }
        }
        JobSecrets.record(localDir, JOB, SECRET);
        CRC32 crc = new CRC32();
        try (var raw = Files.newOutputStream(dir.resolve("file.out.index"));
             DataOutputStream index = new DataOutputStream(new CheckedOutputStream(raw, crc))) {
            index.writeLong(0);
            index.writeLong(bytes);
            index.writeLong(bytes);
            new DataOutputStream(raw).writeLong(crc.getValue());
        }
    }

    private static void fetch(long bytes, int repeat, Messages.Mode mode, int chunk, int window) throws IOException {
        boolean direct = Boolean.parseBoolean(System.getProperty("jvmreuse.shuffle.direct", "true"));
        boolean files = direct && Boolean.parseBoolean(System.getProperty("jvmreuse.shuffle.direct-files", "true"));
        SlotLink link = SlotLink.current();
        if (link == null) {
            throw new IllegalStateException("not in a pool slot with the mpi-shuffle jar on the shared class path");
        }
        int server = server(link);
        byte[] sink = new byte[1 << 20]; // as a reducer's in-memory copy: large reads
        String user = System.getProperty("user.name");
        String hash = RequestHash.of(JobTokenSecretManager.createSecretKey(SECRET),
                Announcement.parse(link.directory().get(server)).port(), JOB, 0, MAP);
        double[] rates = new double[repeat];
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long cpuBefore = threads.getCurrentThreadCpuTime();
        long[] bytesByWay = new long[PathCounters.Way.values().length];
        for (int i = 0; i < repeat; i++) {
            long start = System.nanoTime();
            long got = 0;
            Messages.Read read = new Messages.Read(0, mode, user, JOB, MAP, 0, 0, chunk, direct && link.canCopyDirect(server),
                    files && link.canTakeFiles(server), -1, hash);
            try (SegmentStream in = new SegmentStream(link, server, read, window, 60_000, 3000, bytes).open()) {
                for (int n; (n = in.read(sink)) > 0; ) {
                    got += n;
                }
                long[] pulled = in.bytesByWay();
                for (int w = 0; w < pulled.length; w++) {
                    bytesByWay[w] += pulled[w];
                }
            }
            if (got != bytes) {
                throw new IOException("got " + got + " bytes of " + bytes);
            }
            rates[i] = bytes / 1e6 / ((System.nanoTime() - start) / 1e9);
        }
        double cpu = (threads.getCurrentThreadCpuTime() - cpuBefore) / 1e9;
        Arrays.sort(rates);
        System.out.printf("fetch mode=%s chunk=%d window=%d direct=%b files=%b bytes=%d MBps=%.1f best=%.1f cpu_s=%.3f%n",
                mode.name().toLowerCase(), chunk, window, direct && link.canCopyDirect(server), files && link.canTakeFiles(server),
                bytes, rates[repeat / 2], rates[repeat - 1], cpu);
        StringBuilder paths = new StringBuilder("paths server=" + server + " same_host=" + link.sameHost(server));
        for (PathCounters.Way way : PathCounters.Way.values()) {
            paths.append(' ').append(PathCounters.bytesName(way, link.sameHost(server))).append('=').append(bytesByWay[way.ordinal()]);
        }
        System.out.println(paths);
    }

    /**
     * The Shuffle Manager to pull from: the first rank that announced one, or with
     * {@code -Dfetchbench.server=other-host} the first on another host than this slot's (between
     * hosts every byte goes as MPI messages: no lent file, no direct copy).
     */
    private static int server(SlotLink link) {
        boolean otherHost = System.getProperty("fetchbench.server", "first").equals("other-host");
        List<String> directory = link.directory();
        for (int rank = 0; rank < directory.size(); rank++) {
            if (!directory.get(rank).isEmpty() && !(otherHost && link.sameHost(rank))) {
                return rank;
            }
        }
        throw new IllegalStateException("no Shuffle Manager" + (otherHost ? " on another host" : "") + " in the directory " + directory);
    }
}
