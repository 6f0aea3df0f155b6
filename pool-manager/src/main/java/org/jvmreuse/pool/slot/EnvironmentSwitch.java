package org.jvmreuse.pool.slot;

import java.lang.reflect.Method;
import java.util.HashMap;
import java.util.Map;

/**
 * Gives a run its own environment as seen by {@code System.getenv} and inherited by processes
 * it starts: the JDK keeps both in {@code ProcessEnvironment.theEnvironment}, filled once at JVM
 * start, which this swaps in place. (Native code calling getenv(3) still sees the slot's.)
 */
final class EnvironmentSwitch {
    private static final String PE = "java.lang.ProcessEnvironment";

    @SuppressWarnings("unchecked")
    private final Map<Object, Object> live = (Map<Object, Object>) JdkInternals.get(
            JdkInternals.field(PE, "theEnvironment"), null);
    private final Method variable = JdkInternals.method(PE + "$Variable", "valueOf", String.class);
    private final Method value = JdkInternals.method(PE + "$Value", "valueOf", String.class);
    private final Map<Object, Object> slotEnvironment = new HashMap<>(live);

    void apply(Map<String, String> environment) {
        Map<Object, Object> converted = new HashMap<>();
        try {
            for (Map.Entry<String, String> e : environment.entrySet()) {
                converted.put(variable.invoke(null, e.getKey()), value.invoke(null, e.getValue()));
            }
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot build the run's environment", e);
        }
        replace(converted);
    }

    void restore() {
        replace(slotEnvironment);
    }

    private void replace(Map<Object, Object> contents) {
        synchronized (live) {
            live.clear();
            live.putAll(contents);
        }
    }
}
