package org.jvmreuse.pool.slot;

import org.jvmreuse.pool.classpath.TaskClassLoader;
import org.jvmreuse.pool.protocol.RunSpec;

/** A run being set up: its request, its shared library, and what one step makes for later ones. */
final class RunStart {
    final RunSpec spec;
    final SharedLoaders.SharedLibrary shared;
    /** The start-up settings the run gets (null: the slot's own), once planned. */
    StartupSettings.Plan startup;
    /** The run's class loader, once made. */
    TaskClassLoader loader;

    RunStart(RunSpec spec, SharedLoaders.SharedLibrary shared) {
        this.spec = spec;
        this.shared = shared;
    }

    /** The stack size of the run's main thread (its -Xss; 0: the JVM's default). */
    long mainStackSize() {
        return startup == null ? 0 : startup.stackSize();
    }
}
