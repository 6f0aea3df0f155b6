package org.jvmreuse.pool.slot.globals;

/** {@code Thread.setDefaultUncaughtExceptionHandler}: a run's handler would catch the next run's errors. */
final class DefaultUncaughtHandler implements GlobalState {
    @Override
    public String name() {
        return "default uncaught exception handler";
    }

    @Override
    public Snapshot capture() {
        Thread.UncaughtExceptionHandler before = Thread.getDefaultUncaughtExceptionHandler();
        return runLoader -> {
            Thread.setDefaultUncaughtExceptionHandler(before);
            return null;
        };
    }
}
