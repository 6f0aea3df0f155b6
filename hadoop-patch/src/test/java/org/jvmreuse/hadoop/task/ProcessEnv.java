package org.jvmreuse.hadoop.task;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.HashMap;
import java.util.Map;

/** Changes System.getenv() in place, as a slot does for each run (needs java.lang opened). */
final class ProcessEnv {
    private static final String PE = "java.lang.ProcessEnvironment";

    private ProcessEnv() {
    }

    /** Runs {@code body} with {@code vars} added to the environment; puts everything back after. */
    static <T> T with(Map<String, String> vars, java.util.concurrent.Callable<T> body) throws Exception {
        Map<Object, Object> live = live();
        Map<Object, Object> saved;
        synchronized (live) {
            saved = new HashMap<>(live);
            vars.forEach(ProcessEnv::set);
        }
        try {
            return body.call();
        } finally {
            synchronized (live) {
                live.clear();
                live.putAll(saved);
            }
        }
    }

    static void set(String name, String value) {
        Map<Object, Object> live = live();
        synchronized (live) {
            live.put(convert("$Variable", name), convert("$Value", value));
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<Object, Object> live() {
        try {
            Field f = Class.forName(PE).getDeclaredField("theEnvironment");
            f.setAccessible(true);
            return (Map<Object, Object>) f.get(null);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Object convert(String nested, String text) {
        try {
            Method valueOf = Class.forName(PE + nested).getDeclaredMethod("valueOf", String.class);
            valueOf.setAccessible(true);
            return valueOf.invoke(null, text);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }
}
