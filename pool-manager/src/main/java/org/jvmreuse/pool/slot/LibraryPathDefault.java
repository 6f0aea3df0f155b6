package org.jvmreuse.pool.slot;

import java.io.File;

/**
 * The {@code java.library.path} a new JVM would show a run that gives none: {@code java} puts the
 * process's {@code LD_LIBRARY_PATH} before the JDK's built-in directories (which distributions
 * patch, so they are taken from the slot's own value), and Hadoop puts a task's container
 * directory, where the distributed cache links its files, on the task's {@code LD_LIBRARY_PATH}.
 */
final class LibraryPathDefault {
    private final String builtIn;

    /** From the slot's own {@code java.library.path} and the {@code LD_LIBRARY_PATH} it started with. */
    LibraryPathDefault(String slotValue, String slotLdLibraryPath) {
        String prefix = isEmpty(slotLdLibraryPath) ? "" : slotLdLibraryPath + File.pathSeparator;
        // A slot started with -Djava.library.path (the Java MPI backend) keeps its value.
        builtIn = slotValue.startsWith(prefix) ? slotValue.substring(prefix.length()) : slotValue;
    }

    String forRun(String ldLibraryPath) {
        return isEmpty(ldLibraryPath) ? builtIn : ldLibraryPath + File.pathSeparator + builtIn;
    }

    private static boolean isEmpty(String value) {
        return value == null || value.isEmpty();
    }
}
