package org.jvmreuse.pool.slot.globals;

import java.security.AccessController;
import java.security.PrivilegedAction;

/**
 * {@code System.setSecurityManager} (allowed up to Java 23 when the JVM permits it; from 24 the
 * manager is always null and this costs one read). The JDK
 * hides the field from reflection, so the only way back is the setter itself, which the run's
 * security manager must allow; if it does not, the slot retires.
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
        return runLoader -> {
            SecurityManager now = System.getSecurityManager();
            if (now == before) {
                return null;
            }
            try {
                AccessController.doPrivileged((PrivilegedAction<Void>) () -> {
                    System.setSecurityManager(before);
                    return null;
                });
                return null;
            } catch (SecurityException | UnsupportedOperationException e) {
                return "the run installed " + now.getClass().getName() + ", which does not let it be removed: " + e;
            }
        };
    }
}
