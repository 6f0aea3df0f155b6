package org.jvmreuse.pool.slot;

import java.util.ArrayList;
import java.util.List;
import org.jvmreuse.pool.slot.globals.GlobalStateGuard;

/**
 * The JDK-wide state a run can change ({@link GlobalStateGuard}), recorded before anything else
 * is lent to the run and put back after the rest; with it goes module access, which
 * {@link RunModuleAccess#takeBack} returns to the slot's whether the run was given it or opened
 * it itself.
 */
final class JdkWideState implements RunStep {
    private final GlobalStateGuard guard;
    private final RunModuleAccess moduleAccess;
    private final SharedLoaders sharedLoaders;
    private GlobalStateGuard.Captured captured;
    private long nanos;

    JdkWideState(GlobalStateGuard guard, RunModuleAccess moduleAccess, SharedLoaders sharedLoaders) {
        this.guard = guard;
        this.moduleAccess = moduleAccess;
        this.sharedLoaders = sharedLoaders;
    }

    @Override
    public void lend(RunStart run) {
        captured = null;
        long start = System.nanoTime();
        captured = guard.capture();
        nanos += System.nanoTime() - start;
    }

    @Override
    public String restore(RunEnd end) {
        long start = System.nanoTime();
        List<String> unrestorable = new ArrayList<>(captured == null ? List.of() : captured.restore(end.loader()));
        captured = null;
        List<String> stillOpen = moduleAccess.takeBack(sharedLoaders.unnamedModules());
        if (!stillOpen.isEmpty()) {
            unrestorable.add("module access given to unnamed modules: " + String.join(", ", stillOpen));
        }
        nanos += System.nanoTime() - start;
        return unrestorable.isEmpty() ? null : "run " + end.id() + " changed JDK-wide state that cannot be put back: "
                + String.join("; ", unrestorable);
    }

    /** The time spent recording and putting back JDK-wide state since the last call, for a run's log line. */
    long takeNanos() {
        long taken = nanos;
        nanos = 0;
        return taken;
    }
}
