package org.jvmreuse.pool.common;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

/**
 * The pool's own log: one file per process under the pool's log directory. It never writes to
 * fd 1 or 2, which a slot lends to each run. A file that reaches its size cap is rotated
 * ({@code name.log} becomes {@code name.log.1}, and so on; the oldest is dropped), so a pool
 * that runs for weeks keeps a bounded log: {@code -Djvmreuse.log.max-bytes} (default 10 MiB per
 * file) and {@code -Djvmreuse.log.generations} (rotated files kept, default 3). Logging never
 * throws: a line that cannot be written is lost, and the pool goes on.
 */
public final class PoolLog {
    static final long DEFAULT_MAX_BYTES = 10L << 20;
    static final int DEFAULT_GENERATIONS = 3;
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss,SSS");
    private static volatile PoolLog instance = new PoolLog(System.err, null, "pool", Long.MAX_VALUE, 0);

    private final String who;
    private final Path file;
    private final long maxBytes;
    private final int generations;
    private PrintStream out;
    private long written;

    private PoolLog(PrintStream out, Path file, String who, long maxBytes, int generations) {
        this.out = out;
        this.file = file;
        this.who = who;
        this.maxBytes = maxBytes;
        this.generations = generations;
    }

    public static PoolLog get() {
        return instance;
    }

    /** Sends this process's log to {@code dir/name.log} (appending), rotated as the system properties say. */
    public static void open(Path dir, String name) throws IOException {
        open(dir, name, Long.getLong("jvmreuse.log.max-bytes", DEFAULT_MAX_BYTES),
                Integer.getInteger("jvmreuse.log.generations", DEFAULT_GENERATIONS));
    }

    static void open(Path dir, String name, long maxBytes, int generations) throws IOException {
        if (maxBytes < 1024 || generations < 0) {
            throw new IllegalArgumentException("jvmreuse.log.max-bytes must be at least 1024 and "
                    + "jvmreuse.log.generations at least 0, got " + maxBytes + " and " + generations);
        }
        Files.createDirectories(dir);
        Path file = dir.resolve(name + ".log");
        PoolLog log = new PoolLog(null, file, name, maxBytes, generations);
        log.reopen();
        instance = log;
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
        try {
            StringBuilder line = new StringBuilder(TIME.format(LocalDateTime.now()))
                    .append(' ').append(level).append(' ').append(who).append(": ").append(message);
            if (cause != null) {
                StringWriter trace = new StringWriter();
                cause.printStackTrace(new PrintWriter(trace));
                line.append(System.lineSeparator()).append(trace);
            }
            byte[] bytes = (line + System.lineSeparator()).getBytes(StandardCharsets.UTF_8);
            synchronized (this) {
                if (file != null && written > 0 && written + bytes.length > maxBytes) {
                    rotate();
                }
                out.write(bytes);
                out.flush();
                written += bytes.length;
            }
        } catch (Throwable lost) {
            // Out of memory, disk full, a closed file: the line is lost, the caller goes on.
            Faults.caught(lost);
        }
    }

    /** name.log.(g-1) → name.log.g, ..., name.log → name.log.1, then a fresh name.log. */
    private void rotate() throws IOException {
        out.close();
        if (generations == 0) {
            Files.deleteIfExists(file);
        } else {
            for (int g = generations - 1; g >= 1; g--) {
                Path older = generation(g);
                if (Files.exists(older)) {
                    Files.move(older, generation(g + 1), StandardCopyOption.REPLACE_EXISTING);
                }
            }
            Files.move(file, generation(1), StandardCopyOption.REPLACE_EXISTING);
        }
        reopen();
    }

    private Path generation(int g) {
        return file.resolveSibling(file.getFileName() + "." + g);
    }

    private void reopen() throws IOException {
        OutputStream stream = Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND,
                StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
        out = new PrintStream(stream, false, StandardCharsets.UTF_8);
        written = Files.size(file);
    }
}
