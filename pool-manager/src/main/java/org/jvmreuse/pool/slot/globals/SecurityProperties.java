package org.jvmreuse.pool.slot.globals;

import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.jvmreuse.pool.jdk.JdkInternals;

/**
 * {@code Security.setProperty}: the security properties (about a hundred short strings) are
 * copied before a run and put back after it if the run changed them. What a JDK class read from
 * them into its own statics during the run (a disabled-algorithms list, say) stays: see
 * docs/design.md.
 */
final class SecurityProperties implements GlobalState {
    private final Properties props = (Properties) JdkInternals.get(
            JdkInternals.field("java.security.Security", "props"), null);

    @Override
    public String name() {
        return "security properties";
    }

    /** The last copy taken, reused while the properties hash the same (no copy per run). */
    private Map<Object, Object> copy = Map.of();
    private int copyHash;

    @Override
    public Snapshot capture() {
        int hash = props.hashCode();
        if (hash != copyHash || copy.isEmpty()) {
            copy = new HashMap<>(props);
            copyHash = hash;
        }
        Map<Object, Object> before = copy;
        return runLoader -> {
            // compared in full: a run's change that happened to keep the hash is put back too
            if (!props.equals(before)) {
                synchronized (props) {
                    props.keySet().retainAll(before.keySet());
                    props.putAll(before);
                }
            }
            return null;
        };
    }
}
