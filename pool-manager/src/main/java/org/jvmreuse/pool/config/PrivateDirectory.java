package org.jvmreuse.pool.config;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import org.jvmreuse.pool.os.CurrentUser;

/**
 * The pool's control directory (socket, FIFOs, default logs): a real directory of the pool's
 * user that nobody else may enter. It is created with mode 700 in one step, never chmodded,
 * and examined without following links, so another local user who made the path first (a
 * directory of theirs, or a symlink to a victim's directory) gets a refusal, not our socket,
 * our logs, or a chmod of the victim's directory.
 */
public final class PrivateDirectory {
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rwx------");

    private PrivateDirectory() {
    }

    /** Creates {@code dir} (its parents as needed, they are not checked), or checks the existing one. */
    public static void prepare(Path dir) throws IOException {
        prepare(dir, "control directory", " (choose another --socket)");
    }

    /** The same for a private directory named {@code what} in messages, which end with {@code remedy}. */
    public static void prepare(Path dir, String what, String remedy) throws IOException {
        Path parent = dir.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        try {
            Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
        } catch (FileAlreadyExistsException exists) {
            // a directory of ours from an earlier pool is fine; anything else is refused below
        }
        PosixFileAttributes attributes = Files.readAttributes(dir, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        if (attributes.isSymbolicLink()) {
            throw new IOException(what + " " + dir + " is a symbolic link; refusing to use it" + remedy);
        }
        if (!attributes.isDirectory()) {
            throw new IOException(what + " " + dir + " exists but is not a directory");
        }
        int owner = (Integer) Files.getAttribute(dir, "unix:uid", LinkOption.NOFOLLOW_LINKS);
        if (owner != CurrentUser.uid()) {
            throw new IOException(what + " " + dir + " belongs to uid " + owner
                    + ", not to this pool's user (uid " + CurrentUser.uid() + ")" + remedy);
        }
        if (!OWNER_ONLY.containsAll(attributes.permissions())) {
            throw new IOException(what + " " + dir + " has mode " + PosixFilePermissions.toString(attributes.permissions())
                    + "; it must be private to its owner (chmod 700 " + dir + ")");
        }
    }
}
