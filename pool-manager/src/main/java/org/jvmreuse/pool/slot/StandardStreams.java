package org.jvmreuse.pool.slot;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.Charset;
import org.jvmreuse.pool.os.Native;
import org.jvmreuse.pool.protocol.StreamPath;

/**
 * Lends file descriptors 0, 1 and 2 to a run: its stdin/stdout/stderr paths are opened onto
 * them (so native code and {@code FileDescriptor.out} write where {@code System.out} does), and
 * fresh {@code System.in/out/err} objects wrap them. {@link #restore} puts the slot's own back,
 * which also closes the run's ends (a client waiting on a FIFO then sees them closed).
 */
final class StandardStreams {
    private final int savedIn;
    private final int savedOut;
    private final int savedErr;
    private final InputStream slotIn = System.in;
    private final PrintStream slotOut = System.out;
    private final PrintStream slotErr = System.err;

    StandardStreams() throws IOException {
        savedIn = Native.dup(0);
        savedOut = Native.dup(1);
        savedErr = Native.dup(2);
    }

    /** All three are opened and checked before any is put in place: a refused run leaves the slot's own. */
    void lend(StreamPath stdin, StreamPath stdout, StreamPath stderr) throws IOException {
        int[] opened = {-1, -1, -1};
        try {
            opened[1] = RunStream.open(stdout, true, "stdout");
            opened[2] = RunStream.open(stderr, true, "stderr");
            opened[0] = RunStream.open(stdin, false, "stdin");
            for (int fd = 0; fd < 3; fd++) {
                Native.dup2(opened[fd], fd);
            }
        } finally {
            for (int fd : opened) {
                if (fd >= 0) {
                    Native.closeFd(fd);
                }
            }
        }
        Charset charset = Charset.defaultCharset();
        System.setIn(new BufferedInputStream(new FileInputStream(FileDescriptor.in)));
        System.setOut(new PrintStream(new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 8192), true, charset));
        System.setErr(new PrintStream(new BufferedOutputStream(new FileOutputStream(FileDescriptor.err), 8192), true, charset));
    }

    void restore() throws IOException {
        System.out.flush();
        System.err.flush();
        Native.dup2(savedIn, 0);
        Native.dup2(savedOut, 1);
        Native.dup2(savedErr, 2);
        System.setIn(slotIn);
        System.setOut(slotOut);
        System.setErr(slotErr);
    }
}
