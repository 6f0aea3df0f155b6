package org.jvmreuse.hadoop.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jvmreuse.hadoop.task.job.DeleteOnExit;
import org.jvmreuse.hadoop.task.job.LocalFileSystemUse;
import org.jvmreuse.pool.slot.RunOutcome;

class FileSystemResetTest {
    @TempDir
    Path dir;

    @Test
    void eachRunGetsANewFileSystemAndStatisticsFromZero() throws Exception {
        RunOutcome first = HadoopRuns.run(HadoopRuns.of(LocalFileSystemUse.class, dir.resolve("a").toString(), "/first-run").in(dir));
        RunOutcome second = HadoopRuns.run(HadoopRuns.of(LocalFileSystemUse.class, dir.resolve("b").toString()).in(dir));
        assertEquals("file:" + dir, second.printed("workingDirectory"), "not the first run's cached file system");
        assertEquals("0", second.printed("countedBefore"));
        assertEquals(first.printed("written"), second.printed("written"), "bytes written per run, not since the slot started");
    }

    @Test
    void deleteOnExitHappensAtANormalEndOnly() throws Exception {
        Path kept = Files.createFile(dir.resolve("kept"));
        Path deleted = Files.createFile(dir.resolve("deleted"));
        HadoopRuns.run(DeleteOnExit.class, kept.toString(), "halt");
        HadoopRuns.run(DeleteOnExit.class, deleted.toString(), "return");
        assertTrue(Files.exists(kept), "a halted JVM deletes nothing");
        assertFalse(Files.exists(deleted), "FileSystem's shutdown hook closes the cached file system");
    }
}
