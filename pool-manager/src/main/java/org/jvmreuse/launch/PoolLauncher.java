package org.jvmreuse.launch;

import java.io.File;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.UndeclaredThrowableException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * Starts a pool JVM with the pool's code in its own named module ({@link PoolLayer}):
 * {@code java -javaagent:pool-manager-*-launcher.jar=POOL_JAR:LIBRARY_JAR... -Xbootclasspath/a:BOOT_JAR
 * -cp pool-manager-*-launcher.jar org.jvmreuse.launch.PoolLauncher org.jvmreuse.pool.PoolMain ARGS}.
 * The agent half defines the module and hands it the JVM's {@code Instrumentation}; the main half
 * runs {@code PoolMain}. Only this launcher is on the class path.
 */
public final class PoolLauncher {
    private static final String POOL_MAIN = PoolLayer.MODULE + ".PoolMain";
    private static volatile Consumer<Object> pool;

    private PoolLauncher() {
    }

    public static void premain(String modulePath, Instrumentation inst) {
        if (modulePath == null || modulePath.isEmpty()) {
            throw new IllegalArgumentException("usage: -javaagent:pool-manager-*-launcher.jar=POOL_JAR[:LIBRARY_JAR...]");
        }
        List<Path> jars = new ArrayList<>();
        for (String jar : modulePath.split(File.pathSeparator)) {
            if (!jar.isEmpty()) {
                jars.add(Path.of(jar));
            }
        }
        Consumer<Object> entry = PoolLayer.define(jars.get(0), jars.subList(1, jars.size()));
        entry.accept(inst);
        pool = entry;
    }

    public static void main(String[] args) throws Exception {
        Consumer<Object> entry = pool;
        pool = null;
        if (entry == null) {
            throw new IllegalStateException("the pool module is not defined: start the JVM with"
                    + " -javaagent:pool-manager-*-launcher.jar=POOL_JAR[:LIBRARY_JAR...]");
        }
        if (args.length == 0 || !POOL_MAIN.equals(args[0])) {
            throw new IllegalArgumentException("usage: ... " + PoolLauncher.class.getName() + " " + POOL_MAIN + " [options]");
        }
        try {
            entry.accept(Arrays.copyOfRange(args, 1, args.length));
        } catch (UndeclaredThrowableException wrapped) {
            // PoolMain's own exception, as a JVM started at PoolMain would show it.
            if (wrapped.getCause() instanceof Exception cause) {
                throw cause;
            }
            throw wrapped;
        }
    }
}
