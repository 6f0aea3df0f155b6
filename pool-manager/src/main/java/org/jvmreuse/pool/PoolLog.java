package org.jvmreuse.pool;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.StringWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

/**
 * The pool's own log: one file per process under the pool's log directory. It never writes to
 * fd 1 or 2, which a slot lends to each run.
 */
public final class PoolLog {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss,SSS");
    private static volatile PoolLog instance = new PoolLog(System.err, "pool");

    private final PrintStream out;
    private final String who;

    private PoolLog(PrintStream out, String who) {
        this.out = out;
        this.who = who;
    }

    public static PoolLog get() {
        return instance;
    }

    /** Sends this process's log to {@code dir/name.log} (appending). */
    public static void open(Path dir, String name) throws IOException {
        Files.createDirectories(dir);
        FileOutputStream file = new FileOutputStream(dir.resolve(name + ".log").toFile(), true);
        instance = new PoolLog(new PrintStream(file, true, StandardCharsets.UTF_8), name);
    }

    public void info(String message) {
        write("INFO", message, null);
    }

    public void warn(String message) {
        write("WARN", message, null);
    }

    public void error(String message, Throwable cause) {
        write("ERROR", message, cause);
    }

    private void write(String level, String message, Throwable cause) {
        StringBuilder line = new StringBuilder(TIME.format(LocalDateTime.now()))
                .append(' ').append(level).append(' ').append(who).append(": ").append(message);
        if (cause != null) {
            StringWriter trace = new StringWriter();
            cause.printStackTrace(new PrintWriter(trace));
            line.append(System.lineSeparator()).append(trace);
        }
        synchronized (out) {
            out.println(line);
        }
    }
}
