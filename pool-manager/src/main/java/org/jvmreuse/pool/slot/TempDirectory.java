package org.jvmreuse.pool.slot;

import java.io.File;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import org.jvmreuse.pool.jdk.JdkInternals;

/**
 * Gives a run its own {@code java.io.tmpdir} for {@code File.createTempFile} and
 * {@code Files.createTempFile/createTempDirectory}. The JDK reads the property once per process
 * into two private constants ({@code java.io.File$TempDirectory.TMPDIR}, a {@code File}, and
 * {@code java.nio.file.TempFileHelper.tmpdir}, a {@code Path}); the slot's warm-up already fixed
 * both. The constants cannot be replaced (static final, and the JIT may have folded them), so
 * their contents are: every instance field is copied from a fresh object for the run's value.
 */
final class TempDirectory {
    private final Object file = JdkInternals.get(JdkInternals.field("java.io.File$TempDirectory", "tmpdir", "TMPDIR"), null);
    private final Object path = JdkInternals.get(JdkInternals.field("java.nio.file.TempFileHelper", "tmpdir"), null);
    private final String slotValue = file.toString();

    /** Points both at {@code directory} (the run's java.io.tmpdir, resolved as the JDK would). */
    void use(String directory) {
        copyInto(file, new File(directory));
        copyInto(path, Path.of(directory));
    }

    void restore() {
        use(slotValue);
    }

    private static void copyInto(Object target, Object source) {
        if (target.getClass() != source.getClass()) {
            throw new IllegalStateException("cannot switch java.io.tmpdir: " + target.getClass() + " is not " + source.getClass());
        }
        for (Class<?> c = target.getClass(); c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (!Modifier.isStatic(f.getModifiers())) {
                    f.setAccessible(true);
                    JdkInternals.set(f, target, JdkInternals.get(f, source));
                }
            }
        }
    }
}
