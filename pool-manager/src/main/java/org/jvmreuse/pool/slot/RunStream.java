package org.jvmreuse.pool.slot;

import java.io.IOException;
import org.jvmreuse.pool.os.Native;
import org.jvmreuse.pool.os.PeerFiles;
import org.jvmreuse.pool.protocol.FileKey;
import org.jvmreuse.pool.protocol.StreamPath;

/**
 * Opens one of a run's stdin, stdout or stderr (O_NOCTTY) and, when the client sent the device
 * and inode of its own descriptor, checks that the path led to that file: a client in another
 * PID namespace names a {@code /proc/<pid>/fd/N} that is another process's stream here. On a
 * mismatch the run is refused before it starts (the client runs a new JVM) and nothing is written.
 */
final class RunStream {
    private RunStream() {
    }

    /** The descriptor opened for {@code name} ("stdout"...); the caller closes it. */
    static int open(StreamPath stream, boolean write, String name) throws IOException {
        int fd = Native.openStream(stream.path(), write, stream.key() == null);
        if (stream.key() != null) {
            long[] opened = PeerFiles.key(fd);
            String mismatch = mismatch(name, stream, opened == null ? null : new FileKey(opened[0], opened[1]));
            if (mismatch != null) {
                Native.closeFd(fd);
                throw new Refused(mismatch);
            }
        }
        return fd;
    }

    /** Why the file opened for {@code stream} is not the client's, or null if it is. */
    static String mismatch(String name, StreamPath stream, FileKey opened) {
        if (stream.key().equals(opened)) {
            return null;
        }
        return "the run's " + name + ", " + stream.path() + ", is not the client's own (device:inode "
                + (opened == null ? "unknown" : opened) + " here, " + stream.key()
                + " for the client; a client in another PID namespace?)";
    }
}
