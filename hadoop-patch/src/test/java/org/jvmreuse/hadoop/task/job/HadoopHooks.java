package org.jvmreuse.hadoop.task.job;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.apache.hadoop.util.ShutdownHookManager;

/**
 * Prints whether Hadoop's shutdown is in progress, adds two Hadoop shutdown hooks that write
 * "low" (priority 1) and "high" (100) to the file {@code args[0]}, then halts ({@code args[1]}
 * "halt") or returns.
 */
public final class HadoopHooks {
    public static void main(String[] args) {
        System.out.println("shutdownInProgress=" + ShutdownHookManager.get().isShutdownInProgress());
        Path file = Path.of(args[0]);
        ShutdownHookManager.get().addShutdownHook(() -> write(file, "low"), 1);
        ShutdownHookManager.get().addShutdownHook(() -> write(file, "high"), 100);
        if (args[1].equals("halt")) {
            Runtime.getRuntime().halt(0);
        }
    }

    private static void write(Path file, String line) {
        try {
            Files.writeString(file, line + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
