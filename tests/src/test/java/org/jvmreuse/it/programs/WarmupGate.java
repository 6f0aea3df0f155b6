package org.jvmreuse.it.programs;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A slot warm-up program that ends only once the file named by JVMREUSE_TEST_GATE exists (at
 * most 5 minutes): a test holds a pool's slots in their warm-up for as long as it needs. Then it
 * fails (an uncaught exception) if the gate file says "fail".
 */
public final class WarmupGate {
    public static void main(String[] args) throws Exception {
        Path gate = Path.of(System.getenv("JVMREUSE_TEST_GATE"));
        long deadline = System.nanoTime() + 300_000_000_000L;
        while (!Files.exists(gate) && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        if (Files.exists(gate) && Files.readString(gate).equals("fail")) {
            throw new IllegalStateException("the test's warm-up fails after its gate");
        }
    }
}
