package org.jvmreuse.it.programs;

import java.io.FileOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code leave FILE}: starts a thread that ignores interrupts and never ends, and opens FILE
 * without closing it, then returns. {@code check FILE}: prints how many such threads are alive
 * in this JVM and whether FILE is open in this process.
 */
public final class Leaker {
    private static FileOutputStream leaked;

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[1]).toAbsolutePath();
        if (args[0].equals("leave")) {
            Thread stubborn = new Thread(() -> {
                while (true) {
                    try {
                        Thread.sleep(50);
                    } catch (InterruptedException ignored) {
                        // refuses to stop
                    }
                }
            }, "stubborn-leaker");
            stubborn.setDaemon(true);
            stubborn.start();
            leaked = new FileOutputStream(file.toFile());
            leaked.write(1);
            System.out.println("left a thread and " + file + " open");
            return;
        }
        long threads = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("stubborn-leaker")).count();
        boolean open = false;
        try (var fds = Files.list(Path.of("/proc/self/fd"))) {
            for (Path fd : (Iterable<Path>) fds::iterator) {
                try {
                    open |= Files.readSymbolicLink(fd).equals(file);
                } catch (java.io.IOException closedMeanwhile) {
                    // the listing's own descriptor
                }
            }
        }
        System.out.println("leaker-threads=" + threads);
        System.out.println("file-open=" + open);
    }
}
