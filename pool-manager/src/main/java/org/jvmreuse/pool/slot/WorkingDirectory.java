package org.jvmreuse.pool.slot;

import java.io.File;
import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import org.jvmreuse.pool.jdk.JdkInternals;
import org.jvmreuse.pool.os.Native;

/**
 * Moves the process into a run's working directory. Besides chdir(2), the JDK caches the
 * start-up directory in two places that resolve relative paths: java.io's file system
 * ({@code userDir}) and NIO's default file system ({@code defaultDirectory}); both follow.
 * {@code user.dir} itself is set with the run's system properties.
 */
final class WorkingDirectory {
    private final Field ioUserDir = JdkInternals.field("java.io.UnixFileSystem", "userDir");
    private final Field nioDefaultDir = JdkInternals.field("sun.nio.fs.UnixFileSystem", "defaultDirectory");
    private final Object ioFileSystem = JdkInternals.get(JdkInternals.field("java.io.File", "fs", "FS"), null);
    private final Object nioFileSystem = FileSystems.getDefault();
    private final String slotDirectory = (String) JdkInternals.get(ioUserDir, ioFileSystem);

    void enter(String directory) throws IOException {
        if (!new File(directory).isDirectory()) {
            throw new IOException("working directory " + directory + " does not exist");
        }
        Native.chdir(directory);
        JdkInternals.set(ioUserDir, ioFileSystem, directory);
        JdkInternals.set(nioDefaultDir, nioFileSystem, directory.getBytes(StandardCharsets.UTF_8));
    }

    void restore() throws IOException {
        enter(slotDirectory);
    }
}
