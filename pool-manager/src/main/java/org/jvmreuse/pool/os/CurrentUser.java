package org.jvmreuse.pool.os;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The user this process runs as. */
public final class CurrentUser {
    private CurrentUser() {
    }

    /** The process's real uid (what owns the files it creates and the sockets it trusts). */
    public static int uid() {
        try {
            return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
