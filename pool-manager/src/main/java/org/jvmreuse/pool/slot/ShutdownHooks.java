package org.jvmreuse.pool.slot;

import java.io.File;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.jvmreuse.pool.jdk.JdkInternals;

/**
 * What a JVM does at exit, done for one run: the shutdown hooks the run registered are run
 * (or only dropped, after {@code halt} or SIGKILL) and unregistered, and files it marked
 * {@code deleteOnExit} are deleted. Hooks and files registered before the run are left alone.
 * Both JDK registries are guarded by their own class's monitor, taken here too.
 */
final class ShutdownHooks {
    private final Field hooksField = JdkInternals.field("java.lang.ApplicationShutdownHooks", "hooks");
    private final Field deleteField = JdkInternals.field("java.io.DeleteOnExitHook", "files");
    private Set<Thread> hooksBefore = Set.of();
    private Set<String> filesBefore = Set.of();

    void markStart() {
        hooksBefore = new LinkedHashSet<>(currentHooks());
        filesBefore = new LinkedHashSet<>(currentFiles());
    }

    /**
     * Unregisters the run's hooks and, if {@code run}, starts them; returns those started. The
     * caller waits for them (a kill cuts the wait short) and then calls {@link #finishDeleteOnExit}.
     */
    List<Thread> start(boolean run) {
        List<Thread> added = new ArrayList<>(currentHooks());
        added.removeAll(hooksBefore);
        for (Thread hook : added) {
            Runtime.getRuntime().removeShutdownHook(hook);
        }
        if (!run) {
            return List.of();
        }
        added.forEach(Thread::start);
        return added;
    }

    /** Forgets the run's {@code deleteOnExit} files, deleting them if {@code delete} (not after halt or a kill). */
    void finishDeleteOnExit(boolean delete) {
        synchronized (deleteField.getDeclaringClass()) {
            @SuppressWarnings("unchecked")
            Collection<String> files = (Collection<String>) JdkInternals.get(deleteField, null);
            List<String> added = new ArrayList<>(files);
            added.removeAll(filesBefore);
            files.removeAll(added);
            if (delete) {
                // Like DeleteOnExitHook: the most recently registered first.
                for (int i = added.size() - 1; i >= 0; i--) {
                    new File(added.get(i)).delete();
                }
            }
        }
    }

    private Set<Thread> currentHooks() {
        synchronized (hooksField.getDeclaringClass()) {
            @SuppressWarnings("unchecked")
            IdentityHashMap<Thread, Thread> hooks = (IdentityHashMap<Thread, Thread>) JdkInternals.get(hooksField, null);
            return hooks == null ? Set.of() : new LinkedHashSet<>(hooks.keySet());
        }
    }

    private Collection<String> currentFiles() {
        synchronized (deleteField.getDeclaringClass()) {
            @SuppressWarnings("unchecked")
            Collection<String> files = (Collection<String>) JdkInternals.get(deleteField, null);
            return files == null ? List.of() : new ArrayList<>(files);
        }
    }
}
