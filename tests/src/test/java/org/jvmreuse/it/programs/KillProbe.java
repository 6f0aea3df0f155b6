package org.jvmreuse.it.programs;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * {@code KillProbe TICKS}: starts {@code sleep 600} and prints "child PID"; its shutdown hook
 * appends a line to TICKS every 10 ms for 10 s (a slow hook); main sleeps.
 */
public final class KillProbe {
    public static void main(String[] args) throws Exception {
        Path ticks = Path.of(args[0]);
        Process child = new ProcessBuilder("sleep", "600").start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            long end = System.currentTimeMillis() + 10_000;
            while (System.currentTimeMillis() < end) {
                try {
                    Files.writeString(ticks, "tick\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                            StandardOpenOption.APPEND);
                    Thread.sleep(10);
                } catch (Exception e) {
                    // a hook that insists
                }
            }
        }));
        System.out.println("child " + child.pid());
        Thread.sleep(600_000);
    }
}
