package org.jvmreuse.hadoop.warmup;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.IFile;
import org.apache.hadoop.mapred.IndexRecord;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.SpillRecord;
import org.apache.hadoop.mapred.TaskAttemptID;

/**
 * Map outputs as a NodeManager holds them ({@code usercache/USER/appcache/APP/output/MAP/file.out}
 * and its index), written with Hadoop's IFile writer and SpillRecord as a map task's final spill
 * is: TeraSort-like records (10-byte keys, 90-byte values, sorted), two partitions per map, of
 * which the warm-up's reducer takes partition 0. Two maps are a quarter of the bytes each, the
 * others small, so that the reducer's merge manager shuffles some to disk and some to memory.
 */
final class WarmupMapOutputs {
    static final String JOB = "job_1700000000000_0001";
    static final int MAPS = 12;
    private static final int KEY = 10;
    private static final int VALUE = 90;
    /** The bytes of one record as the merge hands it over: each Text with its one-byte length. */
    static final int RECORD_BYTES = KEY + 1 + VALUE + 1;

    final List<TaskAttemptID> maps = new ArrayList<>();
    /** Records and serialized bytes of partition 0, over all maps. */
    long records;
    long bytes;

    /** Writes about {@code totalBytes} of partition 0 under {@code localDir}. */
    WarmupMapOutputs(Path localDir, long totalBytes, JobConf conf) throws IOException {
        String user = System.getProperty("user.name");
        Random random = new Random(MAPS);
        for (int m = 0; m < MAPS; m++) {
            TaskAttemptID map = TaskAttemptID.forName("attempt_1700000000000_0001_m_" + String.format("%06d", m) + "_0");
            maps.add(map);
            Path dir = Files.createDirectories(localDir.resolve("usercache/" + user + "/appcache/application_1700000000000_0001/output/" + map));
            long share = m < 2 ? totalBytes / 4 : totalBytes / 2 / (MAPS - 2);
            int partitionRecords = (int) Math.max(1, share / RECORD_BYTES);
            SpillRecord index = new SpillRecord(2);
            try (FSDataOutputStream out = new FSDataOutputStream(Files.newOutputStream(dir.resolve("file.out")), null)) {
                for (int partition = 0; partition < 2; partition++) {
                    int count = partition == 0 ? partitionRecords : 1 + partitionRecords / 10;
                    long start = out.getPos();
                    IFile.Writer<Text, Text> writer = new IFile.Writer<>(conf, out, Text.class, Text.class, null, null);
                    write(writer, count, random);
                    writer.close();
                    index.putIndex(new IndexRecord(start, writer.getRawLength(), writer.getCompressedLength()), partition);
                    if (partition == 0) {
                        records += count;
                        bytes += (long) count * RECORD_BYTES;
                    }
                }
            }
            index.writeToFile(new org.apache.hadoop.fs.Path(dir.resolve("file.out.index").toUri()), conf);
            Files.deleteIfExists(dir.resolve(".file.out.index.crc"));
        }
    }

    private static void write(IFile.Writer<Text, Text> writer, int count, Random random) throws IOException {
        byte[][] keys = new byte[count][KEY];
        for (byte[] key : keys) {
            random.nextBytes(key);
        }
        Arrays.sort(keys, Arrays::compareUnsigned); // Text's order
        Text key = new Text();
        Text value = new Text();
        byte[] valueBytes = new byte[VALUE];
        for (byte[] k : keys) {
            key.set(k);
            random.nextBytes(valueBytes);
            value.set(valueBytes);
            writer.append(key, value);
        }
    }
}
