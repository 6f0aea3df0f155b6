package org.jvmreuse.pool.slot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Turns to warm up: at most so many at once, the next as soon as one ends; a directory not private to us is not used. */
class WarmupTurnTest {
    @TempDir
    Path tmp;

    @Test
    void atMostParallelTurnsAtOnceAndTheNextWhenOneEnds() throws Exception {
        Path dir = tmp.resolve("turns");
        WarmupTurn first = WarmupTurn.take(2, dir);
        WarmupTurn second = WarmupTurn.take(2, dir);
        CompletableFuture<WarmupTurn> third = CompletableFuture.supplyAsync(() -> {
            try {
                return WarmupTurn.take(2, dir);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        try {
            third.get(500, TimeUnit.MILLISECONDS);
            throw new AssertionError("a third turn while two are taken");
        } catch (TimeoutException expected) {
            assertFalse(third.isDone());
        }
        second.close();
        third.get(5, TimeUnit.SECONDS).close();
        first.close();
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)));
    }

    @Test
    void noLimitNeverWaitsAndADirectoryOthersMayEnterIsNotUsed() throws Exception {
        Path open = Files.createDirectory(tmp.resolve("open"), PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwxrwxrwx")));
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
        try (WarmupTurn a = WarmupTurn.take(1, open); WarmupTurn b = WarmupTurn.take(1, open)) {
            // both at once: the turns would be another user's to hold
            try (var files = Files.list(open)) {
                assertTrue(files.findAny().isEmpty(), "lock files made in a directory others may enter");
            }
        }
        try (WarmupTurn a = WarmupTurn.take(0, tmp.resolve("none")); WarmupTurn b = WarmupTurn.take(0, tmp.resolve("none"))) {
            assertFalse(Files.exists(tmp.resolve("none")));
        }
    }
}
