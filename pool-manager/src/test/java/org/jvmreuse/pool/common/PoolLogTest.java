package org.jvmreuse.pool.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The pool log is bounded: a file that reaches its cap is rotated, and only a few old ones are kept. */
class PoolLogTest {
    @TempDir
    Path dir;

    @Test
    void aFullLogIsRotatedAndOnlyTheConfiguredGenerationsAreKept() throws Exception {
        PoolLog.open(dir, "slot-rank1", 4096, 2);
        for (int i = 0; i < 1000; i++) {
            PoolLog.get().info(String.format("line %04d of a pool that runs for weeks", i));
        }
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(List.of("slot-rank1.log", "slot-rank1.log.1", "slot-rank1.log.2"),
                    files.map(f -> f.getFileName().toString()).sorted().toList());
        }
        for (String name : List.of("slot-rank1.log", "slot-rank1.log.1", "slot-rank1.log.2")) {
            assertTrue(Files.size(dir.resolve(name)) <= 4096, name + " is " + Files.size(dir.resolve(name)) + " bytes");
        }
        String newest = Files.readString(dir.resolve("slot-rank1.log"));
        assertTrue(newest.contains("line 0999 "), newest);
        assertFalse(Files.readString(dir.resolve("slot-rank1.log.2")).contains("line 0000 "), "the oldest lines are gone");
        PoolLog.open(dir, "slot-rank1", 4096, 2); // a restarted pool appends, and rotates on the same count
        PoolLog.get().info("x".repeat(4000));
        assertTrue(Files.size(dir.resolve("slot-rank1.log")) <= 4096);
    }

    @Test
    void aSymlinkPlantedWhereTheLogGoesIsNotFollowed() throws Exception {
        Path victim = Files.writeString(dir.resolve("victim"), "mine\n");
        Files.createSymbolicLink(dir.resolve("manager-0.log"), victim);
        try {
            PoolLog.open(dir, "manager-0");
        } catch (java.io.IOException refused) {
            assertTrue(refused.getMessage().contains("manager-0.log") || refused.toString().contains("ELOOP")
                    || refused.toString().contains("symbolic link"), refused.toString());
        }
        PoolLog.get().info("a line");
        assertEquals("mine\n", Files.readString(victim));
    }
}
