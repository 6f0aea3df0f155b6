package org.jvmreuse.pool.slot;

import org.jvmreuse.pool.classpath.TaskClassLoader;

/**
 * A run whose steps are taken back: {@code loader} is the one it ran with (null if it never
 * started), {@code exitHooks} whether it ended in a way that runs shutdown hooks.
 */
record RunEnd(long id, SharedLoaders.SharedLibrary shared, TaskClassLoader loader, boolean exitHooks) {
}
