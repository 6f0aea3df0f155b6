package org.jvmreuse.shuffle.reduce;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** What of a file this process still maps (/proc/self/maps), for tests that a chunk is unmapped once done. */
final class Mappings {
    private Mappings() {
    }

    /** Waits (up to 5 s) until no part of {@code file} is mapped in this process any more; the mappings left. */
    static List<String> of(Path file) throws Exception {
        List<String> left = List.of();
        for (long deadline = System.nanoTime() + 5_000_000_000L; System.nanoTime() < deadline; Thread.sleep(10)) {
            left = Files.readAllLines(Path.of("/proc/self/maps")).stream().filter(line -> line.endsWith(file.toString())).toList();
            if (left.isEmpty()) {
                break;
            }
        }
        return left;
    }
}
