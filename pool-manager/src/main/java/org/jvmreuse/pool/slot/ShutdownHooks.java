package org.jvmreuse.pool.slot;

import java.io.File;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

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

    /** Runs (if {@code run}) and unregisters the run's hooks; returns hooks still alive after the wait. */
    List<Thread> finish(boolean run, long waitMillis) throws InterruptedException {
        List<Thread> added = new ArrayList<>(currentHooks());
        added.removeAll(hooksBefore);
        for (Thread hook : added) {
            Runtime.getRuntime().removeShutdownHook(hook);
        }
        List<Thread> alive = new ArrayList<>();
        if (run) {
            added.forEach(Thread::start);
            long deadline = System.currentTimeMillis() + waitMillis;
            for (Thread hook : added) {
                hook.join(Math.max(1, deadline - System.currentTimeMillis()));
                if (hook.isAlive()) {
                    alive.add(hook);
                }
            }
        }
        finishDeleteOnExit(run);
        return alive;
    }

    private void finishDeleteOnExit(boolean delete) {
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
