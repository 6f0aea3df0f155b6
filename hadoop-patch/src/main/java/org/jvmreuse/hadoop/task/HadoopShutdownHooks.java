package org.jvmreuse.hadoop.task;

import static org.jvmreuse.hadoop.names.HadoopNames.HadoopShutdownHooks.HOOKS;
import static org.jvmreuse.hadoop.names.HadoopNames.HadoopShutdownHooks.HOOKS_IN_ORDER;
import static org.jvmreuse.hadoop.names.HadoopNames.HadoopShutdownHooks.SHUTDOWN_IN_PROGRESS;

import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.commons.logging.LogFactory;
import org.apache.hadoop.util.ShutdownHookManager;

/**
 * Hadoop's ShutdownHookManager runs its hooks (FileSystem's ClientFinalizer, FileContext's
 * deleteOnExit, ...) from one JVM shutdown hook that its class registered when the slot loaded
 * it, so the slot never runs it for a run. Instead each run gets a JVM shutdown hook of its own
 * that runs the hooks the task registered, in priority order, when and as a JVM exit would:
 * the slot runs a run's JVM hooks when it ends normally, by System.exit or by SIGTERM, while the
 * run's other threads still live, and drops them after halt or SIGKILL. After the run the manager
 * is emptied and may take hooks again.
 */
final class HadoopShutdownHooks {
    private static volatile boolean ran;
    private static Thread jvmHook;

    private HadoopShutdownHooks() {
    }

    static void beforeRun() {
        ran = false;
        jvmHook = new Thread(HadoopShutdownHooks::runHooks, "Hadoop ShutdownHookManager");
        Runtime.getRuntime().addShutdownHook(jvmHook);
    }

    static void afterRun(boolean exitHooks) {
        if (jvmHook != null) {
            Runtime.getRuntime().removeShutdownHook(jvmHook); // the slot has done so if it counted it as the run's
            jvmHook = null;
        }
        if (exitHooks && !ran) {
            runHooks(); // the slot did not run our JVM hook
        }
        ShutdownHookManager manager = ShutdownHookManager.get();
        ((Set<?>) Fields.get(manager, HOOKS)).clear();
        ((AtomicBoolean) Fields.get(manager, SHUTDOWN_IN_PROGRESS)).set(false);
    }

    /** What ShutdownHookManager's own JVM hook does. */
    private static void runHooks() {
        ran = true;
        ShutdownHookManager manager = ShutdownHookManager.get();
        ((AtomicBoolean) Fields.get(manager, SHUTDOWN_IN_PROGRESS)).set(true);
        for (Object hook : (List<?>) Fields.call(manager, HOOKS_IN_ORDER)) {
            try {
                ((Runnable) hook).run();
            } catch (Exception | LinkageError e) {
                // ShutdownHookManager's words; other Errors (the slot stopping a stuck hook) end the loop
                LogFactory.getLog(ShutdownHookManager.class).warn(
                        "ShutdownHook '" + hook.getClass().getSimpleName() + "' failed, " + e, e);
            }
        }
    }
}
