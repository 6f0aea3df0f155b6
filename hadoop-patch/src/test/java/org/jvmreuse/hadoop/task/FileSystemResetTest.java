package org.jvmreuse.hadoop.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileSystemResetTest {
    @Test
    void cacheIsEmptiedAndStatisticsStartAgain(@TempDir Path dir) throws Exception {
        Object[] first = new SlotRun(new RunLoader()).run(true, () -> writeAndCount(dir.resolve("a")));
        assertNoStatistics();
        Object[] second = new SlotRun(new RunLoader()).run(true, () -> writeAndCount(dir.resolve("b")));
        assertNotSame(first[0], second[0]);
        assertEquals(first[1], second[1], "bytes written per run, not since the slot started");
        assertNoStatistics();
    }

    @Test
    void deleteOnExitHappensAtANormalEndOnly(@TempDir Path dir) throws Exception {
        Path kept = Files.createFile(dir.resolve("kept"));
        Path deleted = Files.createFile(dir.resolve("deleted"));
        new SlotRun(new RunLoader()).run(false, () -> markDeleteOnExit(kept));
        new SlotRun(new RunLoader()).run(true, () -> markDeleteOnExit(deleted));
        assertTrue(Files.exists(kept), "a halted JVM deletes nothing");
        assertFalse(Files.exists(deleted), "FileSystem's shutdown hook closes the cached file system");
    }

    /** The file system used and the bytes the statistics counted for its scheme. */
    private static Object[] writeAndCount(Path file) throws Exception {
        FileSystem fs = FileSystem.getLocal(new Configuration());
        try (FSDataOutputStream out = fs.create(new org.apache.hadoop.fs.Path(file.toUri()))) {
            out.write(new byte[1000]);
        }
        long written = 0;
        for (FileSystem.Statistics s : FileSystem.getAllStatistics()) {
            if (s.getScheme().equals("file")) {
                written += s.getBytesWritten();
            }
        }
        return new Object[] {fs, written};
    }

    private static Void markDeleteOnExit(Path file) throws Exception {
        FileSystem.get(file.toUri(), new Configuration()).deleteOnExit(new org.apache.hadoop.fs.Path(file.toUri()));
        return null;
    }

    /**
     * No scheme a run used is left: only the entry kept for SecureIOUtils' static raw local
     * file system (if loaded), at zero.
     */
    private static void assertNoStatistics() {
        int allowed = SharedClasses.loaded("org.apache.hadoop.io.SecureIOUtils").isPresent() ? 1 : 0;
        assertTrue(FileSystem.getAllStatistics().size() <= allowed, FileSystem.getAllStatistics().toString());
        for (FileSystem.Statistics s : FileSystem.getAllStatistics()) {
            assertEquals(0, s.getBytesRead() + s.getBytesWritten() + s.getReadOps() + s.getWriteOps(), s.toString());
        }
    }
}
