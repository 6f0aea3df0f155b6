package org.jvmreuse.shuffle.server;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntUnaryOperator;
import java.util.function.ToIntFunction;
import java.util.regex.Pattern;
import java.util.zip.CRC32;
import java.util.zip.CheckedInputStream;

/**
 * The map outputs of one NodeManager, where its ShuffleHandler finds them:
 * {@code <local dir>/usercache/<user>/appcache/<application>/output/<map attempt>/file.out} and
 * its {@code file.out.index} (per partition: start offset, raw length, segment length, as
 * longs; then the CRC32 of those bytes). Indexes are checked and cached, least recently used
 * first out, within a budget of bytes (as the ShuffleHandler's IndexCache: an index's size grows
 * with the job's reducers, so a count of entries bounds nothing); data files are opened and
 * mapped per chunk, and each mapping is unmapped once sent, so nothing stays open or mapped
 * after the NodeManager deletes a finished job's files (a file lent to a reducer stays open
 * until that reducer releases it).
 */
final class MapOutputs {
    static final Pattern JOB_ID = Pattern.compile("job_[0-9]+_[0-9]+");
    private static final Pattern ATTEMPT_ID = Pattern.compile("attempt_[0-9]+_[0-9]+_m_[0-9]+_[0-9]+");
    private static final Pattern USER = Pattern.compile("[A-Za-z0-9._][A-Za-z0-9._-]*");
    private static final int INDEX_RECORD = 3 * Long.BYTES;
    /** What a cached index costs beyond its records: the map entry, the path, the array header. */
    private static final int ENTRY_OVERHEAD = 160;
    private static final int ENOENT = 2;

    /** One partition's segment in a map output file. */
    record Segment(Path file, long start, long rawLength, long length) { }

    private final List<Path> localDirs;
    private final String owner;
    private final long cacheBytes;
    private final Map<Path, long[]> indexes = new LinkedHashMap<>(64, 0.75f, true); // guarded by itself
    private long cachedBytes; // guarded by indexes

    /**
     * {@code owner}: the only user whose outputs are served (the pool's own); {@code cacheBytes}:
     * the most the cached indexes may take.
     */
    MapOutputs(List<Path> localDirs, String owner, long cacheBytes) {
        if (cacheBytes < 0) {
            throw new IllegalArgumentException("the index cache size must be >= 0, not " + cacheBytes);
        }
        this.localDirs = List.copyOf(localDirs);
        this.owner = owner;
        this.cacheBytes = cacheBytes;
    }

    /** The bytes the cached indexes take now. */
    long cachedBytes() {
        synchronized (indexes) {
            return cachedBytes;
        }
    }

    private static long cost(Path file, long[] records) {
        return ENTRY_OVERHEAD + 2L * file.toString().length() + (long) Long.BYTES * records.length;
    }

    Segment segment(String user, String jobId, String mapId, int reduce) throws IOException {
        if (!USER.matcher(user).matches() || !JOB_ID.matcher(jobId).matches() || !ATTEMPT_ID.matcher(mapId).matches()) {
            throw new MapOutputException("malformed request: user '" + user + "', job '" + jobId + "', map '" + mapId + "'");
        }
        if (!user.equals(owner)) {
            throw new MapOutputException("map outputs of user " + user + " are not served here (this Shuffle Manager runs as "
                    + owner + ")");
        }
        if (!mapId.startsWith("attempt_" + jobId.substring("job_".length()) + "_")) {
            throw new MapOutputException("map " + mapId + " is not of job " + jobId);
        }
        String base = "usercache/" + user + "/appcache/application_" + jobId.substring("job_".length()) + "/output/" + mapId;
        for (Path dir : localDirs) {
            Path index = dir.resolve(base).resolve("file.out.index");
            if (Files.exists(index)) {
                long[] records = index(index);
                if (reduce < 0 || reduce >= records.length / 3) {
                    throw new MapOutputException("partition " + reduce + " is not in " + index + " (" + records.length / 3
                            + " partitions)");
                }
                return new Segment(index.resolveSibling("file.out"), records[3 * reduce], records[3 * reduce + 1],
                        records[3 * reduce + 2]);
            }
        }
        throw new MapOutputException("no map output " + base + "/file.out.index in " + localDirs);
    }

    /**
     * Maps {@code length} bytes of the segment from {@code offset}, read-only: a direct buffer
     * (position 0, limit {@code length}) that MPI sends in place, with no copy out of the page
     * cache. The file is checked to hold the whole segment first, so a truncated file is a
     * {@link MapOutputException}, never a fault on a page past its end. The caller unmaps it
     * ({@link Mappings#unmap}) once nothing reads it any more.
     */
    ByteBuffer map(Segment segment, long offset, int length) throws IOException {
        if (offset < 0 || length <= 0 || offset + length > segment.length()) {
            throw new MapOutputException("bytes " + offset + "+" + length + " are outside the segment of " + segment.length()
                    + " bytes");
        }
        try (FileChannel channel = FileChannel.open(segment.file(), StandardOpenOption.READ)) {
            if (channel.size() < segment.start() + segment.length()) {
                throw new MapOutputException(segment.file() + " is truncated: " + channel.size()
                        + " bytes, its index needs " + (segment.start() + segment.length()));
            }
            return channel.map(FileChannel.MapMode.READ_ONLY, segment.start() + offset, length);
        } catch (NoSuchFileException e) {
            throw new MapOutputException("map output " + segment.file() + " is missing");
        }
    }

    /**
     * Opens the segment's map output with {@code open} (a path to a descriptor, or -errno) for a
     * reducer on this host to read itself: the descriptor, which the caller closes with
     * {@code close}. As for {@link #map}, the file is checked to hold the whole segment first.
     */
    int open(Segment segment, ToIntFunction<String> open, IntUnaryOperator close) throws IOException {
        int fd = open.applyAsInt(segment.file().toString());
        if (fd == -ENOENT) {
            throw new MapOutputException("map output " + segment.file() + " is missing");
        }
        if (fd < 0) {
            throw new IOException("cannot open " + segment.file() + ": errno " + -fd);
        }
        try {
            long size = Files.size(segment.file());
            if (size < segment.start() + segment.length()) {
                throw new MapOutputException(segment.file() + " is truncated: " + size + " bytes, its index needs "
                        + (segment.start() + segment.length()));
            }
            return fd;
        } catch (IOException | RuntimeException e) {
            close.applyAsInt(fd);
            if (e instanceof NoSuchFileException) {
                throw new MapOutputException("map output " + segment.file() + " is missing");
            }
            throw e;
        }
    }

    /** Caches {@code records}, evicting the least recently used indexes beyond the budget. */
    private void cache(Path file, long[] records) {
        long cost = cost(file, records);
        if (cost > cacheBytes) {
            return; // larger than the whole cache: read again when asked for
        }
        synchronized (indexes) {
            long[] replaced = indexes.put(file, records);
            cachedBytes += cost - (replaced == null ? 0 : cost(file, replaced));
            for (var eldest = indexes.entrySet().iterator(); cachedBytes > cacheBytes && eldest.hasNext(); ) {
                Map.Entry<Path, long[]> e = eldest.next();
                cachedBytes -= cost(e.getKey(), e.getValue());
                eldest.remove();
            }
        }
    }

    private long[] index(Path file) throws IOException {
        synchronized (indexes) {
            long[] cached = indexes.get(file);
            if (cached != null) {
                return cached;
            }
        }
        long size = Files.size(file);
        if (size < Long.BYTES || (size - Long.BYTES) % INDEX_RECORD != 0) {
            throw new MapOutputException("index " + file + " is corrupt: " + size + " bytes");
        }
        int records = (int) ((size - Long.BYTES) / INDEX_RECORD);
        long[] values = new long[3 * records];
        CRC32 crc = new CRC32();
        try (InputStream raw = Files.newInputStream(file);
             DataInputStream in = new DataInputStream(new CheckedInputStream(raw, crc))) {
            for (int i = 0; i < values.length; i++) {
                values[i] = in.readLong();
            }
            long computed = crc.getValue();
            if (new DataInputStream(raw).readLong() != computed) {
                throw new MapOutputException("index " + file + " is corrupt: checksum mismatch");
            }
        } catch (EOFException e) {
            throw new MapOutputException("index " + file + " is corrupt: truncated");
        }
        for (int r = 0; r < records; r++) {
            if (values[3 * r] < 0 || values[3 * r + 1] < 0 || values[3 * r + 2] < 0) {
                throw new MapOutputException("index " + file + " is corrupt: negative offset or length");
            }
        }
        cache(file, values);
        return values;
    }
}
