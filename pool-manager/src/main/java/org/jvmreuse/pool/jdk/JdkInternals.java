package org.jvmreuse.pool.jdk;

import java.lang.reflect.Field;
import java.lang.reflect.Method;

/**
 * Reflective access to the few JDK internals a slot must switch per run. The pool's agent opens
 * the packages involved to the pool's code ({@code slot.PoolModuleAccess}); the same fields exist
 * from JDK 17 to 25 (the thread containers from 21).
 */
public final class JdkInternals {
    private JdkInternals() {
    }

    /** The first of {@code names} that {@code className} declares (JDK versions differ in names). */
    public static Field field(String className, String... names) {
        ReflectiveOperationException missing = null;
        for (String name : names) {
            try {
                Field field = Class.forName(className).getDeclaredField(name);
                field.setAccessible(true);
                return field;
            } catch (ReflectiveOperationException e) {
                missing = e;
            } catch (RuntimeException e) {
                throw unreachable(className + "." + name, e);
            }
        }
        throw unreachable(className + "." + String.join("/", names), missing);
    }

    private static IllegalStateException unreachable(String what, Exception cause) {
        return new IllegalStateException("cannot reach " + what + " in Java " + Runtime.version()
                + " (is the slot JVM started by the pool's launcher, -javaagent:pool-manager-*-launcher.jar?)", cause);
    }

    public static Method method(String className, String name, Class<?>... parameters) {
        try {
            Method method = Class.forName(className).getDeclaredMethod(name, parameters);
            method.setAccessible(true);
            return method;
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw unreachable(className + "." + name, e);
        }
    }

    public static Object get(Field field, Object target) {
        try {
            return field.get(target);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    public static void set(Field field, Object target, Object value) {
        try {
            field.set(target, value);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }
}
