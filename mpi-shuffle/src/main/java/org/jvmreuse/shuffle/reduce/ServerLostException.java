package org.jvmreuse.shuffle.reduce;

import java.io.IOException;

/**
 * The Shuffle Manager a read went to is gone: it said it is stopping, or it answered neither the
 * read nor a liveness check in time. Not a fault of the map output: the host's outputs are
 * fetched over HTTP instead, and no fetch failure is reported.
 */
final class ServerLostException extends IOException {
    ServerLostException(String message) {
        super(message);
    }

    /** Whether {@code e} or one of its causes is a lost server (Hadoop's streams may wrap it). */
    static boolean in(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ServerLostException) {
                return true;
            }
        }
        return false;
    }
}
