package org.jvmreuse.pool.slot;

import java.lang.instrument.Instrumentation;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The JDK packages the pool's own code reaches by reflection to switch JDK-wide state per run.
 * The agent opens them when the JVM starts, to the pool's code only: its named module
 * ({@code org.jvmreuse.pool}, defined by {@code org.jvmreuse.launch.PoolLayer}). Opening them with {@code --add-opens ...=ALL-UNNAMED} would give every
 * run's code the same access, which a new JVM with the run's own options would not
 * ({@link RunModuleAccess} gives a run what its options ask for, and takes it back after).
 * A module this JDK lacks (a jlink'd runtime) is skipped; the state guard that needs it then
 * fails when the slot starts, naming what it cannot reach.
 */
final class PoolModuleAccess {
    static final List<String> OPENED = List.of(
            "java.base/java.lang", "java.base/java.io", "java.base/sun.nio.fs", "java.base/java.nio.file",
            "java.base/java.util.concurrent", "java.base/jdk.internal.vm", "java.base/java.net",
            "java.base/javax.net.ssl", "java.base/java.security", "java.base/sun.security.jca",
            "java.base/javax.security.auth.login", "java.naming/javax.naming.spi",
            "java.naming/com.sun.naming.internal", "java.rmi/java.rmi.server", "java.desktop/java.beans",
            "java.base/jdk.internal.misc", "java.logging/java.util.logging", "java.sql/java.sql",
            "java.management/sun.management", "java.base/jdk.internal.loader", "java.base/java.lang.invoke",
            "java.base/java.nio.charset", "java.base/java.nio.file.spi", "java.base/java.util",
            "java.base/sun.net.www.protocol.jar");

    private PoolModuleAccess() {
    }

    static void openTo(Instrumentation inst, Module pool) {
        for (String modulePackage : OPENED) {
            int slash = modulePackage.indexOf('/');
            Optional<Module> module = ModuleLayer.boot().findModule(modulePackage.substring(0, slash));
            module.ifPresent(m -> inst.redefineModule(m, Set.of(), Map.of(),
                    Map.of(modulePackage.substring(slash + 1), Set.of(pool)), Set.of(), Map.of()));
        }
    }
}
