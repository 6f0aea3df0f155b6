package org.jvmreuse.shuffle.server;

import java.io.IOException;

/** A map output that cannot be served: missing, truncated, or with a bad index. */
final class MapOutputException extends IOException {
    MapOutputException(String message) {
        super(message);
    }
}
