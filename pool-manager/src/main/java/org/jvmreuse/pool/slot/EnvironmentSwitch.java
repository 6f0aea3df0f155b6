package org.jvmreuse.pool.slot;

import java.lang.reflect.Method;
import java.util.HashMap;
import java.util.Map;
import org.jvmreuse.pool.jdk.JdkInternals;

/**
 * Gives a run its own environment as seen by {@code System.getenv} and inherited by processes
 * it starts: the JDK keeps both in {@code ProcessEnvironment.theEnvironment}, filled once at JVM
 * start, which this swaps in place. (Native code calling getenv(3) still sees the slot's.)
 */
final class EnvironmentSwitch implements RunStep {
    private static final String PE = "java.lang.ProcessEnvironment";

    @SuppressWarnings("unchecked")
    private final Map<Object, Object> live = (Map<Object, Object>) JdkInternals.get(
            JdkInternals.field(PE, "theEnvironment"), null);
    private final Method variable = JdkInternals.method(PE + "$Variable", "valueOf", String.class);
    private final Method value = JdkInternals.method(PE + "$Value", "valueOf", String.class);
    private final Map<Object, Object> slotEnvironment = new HashMap<>(live);

    @Override
    public void lend(RunStart run) {
        Map<Object, Object> converted = new HashMap<>();
        run.spec.environment().forEach((name, text) -> converted.put(variable(name), value(text)));
        replace(converted);
    }

    /** Sets one variable of the run's environment (for a library's run hook). */
    void set(String name, String text) {
        synchronized (live) {
            live.put(variable(name), value(text));
        }
    }

    private Object variable(String name) {
        return convert(variable, name);
    }

    private Object value(String text) {
        return convert(value, text);
    }

    private static Object convert(Method valueOf, String text) {
        try {
            return valueOf.invoke(null, text);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot build the run's environment", e);
        }
    }

    @Override
    public String restore(RunEnd end) {
        replace(slotEnvironment);
        return null;
    }

    private void replace(Map<Object, Object> contents) {
        synchronized (live) {
            live.clear();
            live.putAll(contents);
        }
    }
}
