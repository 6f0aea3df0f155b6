package org.jvmreuse.pool.slot;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** The process's open file descriptors, from /proc/self/fd. */
final class OpenFiles {
    private OpenFiles() {
    }

    static Set<Integer> snapshot() {
        Set<Integer> fds = new HashSet<>();
        String[] names = new File("/proc/self/fd").list();
        if (names != null) {
            for (String name : names) {
                fds.add(Integer.parseInt(name));
            }
        }
        return fds;
    }

    /** Descriptors open now that were not in {@code before}, as "fd -> target". */
    static List<String> openedSince(Set<Integer> before) {
        List<String> opened = new ArrayList<>();
        for (int fd : snapshot()) {
            if (!before.contains(fd)) {
                String target = target(fd);
                // skip descriptors closed meanwhile and the handle of the /proc/self/fd listing itself
                if (target != null && !target.matches("/proc/\\d+/fd")) {
                    opened.add(fd + " -> " + target);
                }
            }
        }
        return opened;
    }

    private static String target(int fd) {
        try {
            return Files.readSymbolicLink(Path.of("/proc/self/fd/" + fd)).toString();
        } catch (IOException closed) {
            return null;
        }
    }
}
