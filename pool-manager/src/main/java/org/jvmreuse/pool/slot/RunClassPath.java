package org.jvmreuse.pool.slot;

import java.util.ArrayList;
import java.util.List;
import org.jvmreuse.pool.classpath.TaskClassLoader;

/**
 * A run's own class path entries (its class path without the shared ones), split where the
 * shared entries begin: {@code first} are listed before every shared entry and so, in one JVM
 * with that class path, would win over the shared library; {@code rest} come after it. A Hadoop
 * task's class path starts with {@code $PWD}, then Hadoop's, then the job's; with
 * {@code mapreduce.job.user.classpath.first} the job's come before Hadoop's.
 */
record RunClassPath(List<String> first, List<String> rest) {
    static RunClassPath of(List<String> classPath, List<String> shared) {
        List<String> first = new ArrayList<>();
        List<String> rest = new ArrayList<>();
        boolean sharedSeen = shared.isEmpty(); // nothing shared: nothing to come before
        for (String entry : classPath) {
            if (shared.contains(entry)) {
                sharedSeen = true;
            } else {
                (sharedSeen ? rest : first).add(entry);
            }
        }
        return new RunClassPath(List.copyOf(first), List.copyOf(rest));
    }

    /** The run's loader: its own entries over the shared library's loader. */
    TaskClassLoader loader(SharedLoaders.SharedLibrary shared) {
        return TaskClassLoader.forRun(first, rest, shared.loader(), shared.packages());
    }
}
