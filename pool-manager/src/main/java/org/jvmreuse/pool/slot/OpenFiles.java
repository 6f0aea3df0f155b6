package org.jvmreuse.pool.slot;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The process's open file descriptors and what they point to, from /proc/self/fd. Numbers alone
 * would not do: a run can close a descriptor and get the same number back for its own file.
 */
final class OpenFiles {
    private OpenFiles() {
    }

    static Map<Integer, String> snapshot() {
        Map<Integer, String> fds = new HashMap<>();
        String[] names = new File("/proc/self/fd").list();
        if (names != null) {
            for (String name : names) {
                int fd = Integer.parseInt(name);
                String target = target(fd);
                // skip descriptors closed meanwhile and the handle of this listing itself
                if (target != null && !target.matches("/proc/\\d+/fd")) {
                    fds.put(fd, target);
                }
            }
        }
        return fds;
    }

    /**
     * Descriptors in {@code now} that were not open, or pointed elsewhere, in {@code before}, and
     * are not one of the {@code kept} files: "fd -> target".
     */
    static List<String> added(Map<Integer, String> before, Map<Integer, String> now, Set<String> kept) {
        List<String> opened = new ArrayList<>();
        now.forEach((fd, target) -> {
            if (!target.equals(before.get(fd)) && !kept.contains(target)) {
                opened.add(fd + " -> " + target);
            }
        });
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
