package org.jvmreuse.shuffle.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.apache.hadoop.mapred.IndexRecord;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.SpillRecord;

/** A map output as a NodeManager holds it, written with Hadoop's own index writer. */
public final class MapOutputFiles {
    public static final String USER = System.getProperty("user.name");
    public static final String JOB = "job_1700000000000_0007";
    public static final String MAP = "attempt_1700000000000_0007_m_000003_0";

    public final Path localDir;
    public final Path data;
    public final Path index;
    public final byte[][] partitions;

    /** {@code sizes[r]}: the bytes of partition r, random but fixed by {@code seed}. */
    public MapOutputFiles(Path localDir, long seed, int... sizes) throws IOException {
        this.localDir = localDir;
        Path dir = localDir.resolve("usercache/" + USER + "/appcache/application_1700000000000_0007/output/" + MAP);
        Files.createDirectories(dir);
        data = dir.resolve("file.out");
        index = dir.resolve("file.out.index");
        Random random = new Random(seed);
        partitions = new byte[sizes.length][];
        SpillRecord spill = new SpillRecord(sizes.length);
        long offset = 0;
        try (var out = Files.newOutputStream(data)) {
            for (int r = 0; r < sizes.length; r++) {
                partitions[r] = new byte[sizes[r]];
                random.nextBytes(partitions[r]);
                out.write(partitions[r]);
                spill.putIndex(new IndexRecord(offset, sizes[r] * 2L, sizes[r]), r);
                offset += sizes[r];
            }
        }
        spill.writeToFile(new org.apache.hadoop.fs.Path(index.toUri()), new JobConf(false));
        Files.deleteIfExists(index.resolveSibling(".file.out.index.crc"));
    }
}
