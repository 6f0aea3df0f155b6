package org.jvmreuse.pool.slot.globals;

/**
 * {@code System.setSecurityManager} (Java 17 allows it, with a warning): the JDK hides the field
 * from reflection and a manager decides itself whether it may be replaced, so a run that
 * installed one retires the slot. From Java 24 no run can install one.
 */
@SuppressWarnings("removal")
final class InstalledSecurityManager implements GlobalState {
    @Override
    public String name() {
        return "security manager";
    }

    @Override
    public Snapshot capture() {
        SecurityManager before = System.getSecurityManager();
        return runLoader -> System.getSecurityManager() == before ? null
                : "the run installed " + System.getSecurityManager().getClass().getName()
                        + " with System.setSecurityManager, which no one can take out again";
    }
}
