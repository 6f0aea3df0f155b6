package org.jvmreuse.pool.slot.globals;

import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.jvmreuse.pool.slot.JdkInternals;

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

    @Override
    public Snapshot capture() {
        Map<Object, Object> before = new HashMap<>(props);
        return runLoader -> {
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
