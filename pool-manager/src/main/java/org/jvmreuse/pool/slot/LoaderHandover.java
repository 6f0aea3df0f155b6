package org.jvmreuse.pool.slot;

import org.jvmreuse.pool.common.PoolLog;

/**
 * The run's loader, once the run has started, handed to the JVM and to the run's shared library:
 * it becomes the system class loader ({@link SystemLoaderSwitch}), and the library's run hooks
 * prepare for it ({@link RunHooks#beforeRun}, which may set the run's environment). Taken back in
 * the same order, as before there were steps: the hooks' afterRun runs with the slot's system loader.
 */
final class LoaderHandover implements RunStep {
    private final SystemLoaderSwitch systemLoader;
    private final EnvironmentSwitch environment;

    LoaderHandover(SystemLoaderSwitch systemLoader, EnvironmentSwitch environment) {
        this.systemLoader = systemLoader;
        this.environment = environment;
    }

    @Override
    public void lend(RunStart run) {
        systemLoader.lend(run.loader);
        run.shared.hooks().beforeRun(run.loader, environment::set);
    }

    @Override
    public String restore(RunEnd end) {
        systemLoader.restore();
        try {
            end.shared().hooks().afterRun(end.loader(), end.exitHooks());
            return null;
        } catch (RuntimeException e) {
            String problem = "run " + end.id() + ": resetting shared library state failed: " + e.getMessage();
            PoolLog.get().error(problem, e);
            return problem;
        }
    }
}
