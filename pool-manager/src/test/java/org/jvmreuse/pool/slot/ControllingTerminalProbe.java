package org.jvmreuse.pool.slot;

import java.nio.file.Files;
import java.nio.file.Path;
import org.jvmreuse.pool.os.PeerFiles;
import org.jvmreuse.pool.protocol.StreamPath;

/**
 * Run as a session leader without a controlling terminal: opens the terminal given as a run's
 * stdin, as a slot would, and prints its controlling terminal's device number afterwards
 * (tty_nr of /proc/self/stat; 0: none).
 */
public final class ControllingTerminalProbe {
    private ControllingTerminalProbe() {
    }

    public static void main(String[] args) throws Exception {
        int fd = RunStream.open(StreamPath.unchecked(args[0]), false, "stdin");
        String stat = Files.readString(Path.of("/proc/self/stat"));
        System.out.println(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[4]);
        PeerFiles.close(fd);
    }
}
