package org.jvmreuse.hadoop.task;

import java.lang.reflect.Field;
import java.lang.reflect.Method;

/** Reflective access to Hadoop's private fields and methods (Hadoop's classes are in unnamed modules). */
final class Fields {
    private Fields() {
    }

    static Object getStatic(Class<?> c, String name) {
        try {
            return field(c, name).get(null);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    static void setStatic(Class<?> c, String name, Object value) {
        try {
            field(c, name).set(null, value);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    static Object get(Object target, String name) {
        try {
            return field(target.getClass(), name).get(target);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    static void set(Object target, String name, Object value) {
        try {
            field(target.getClass(), name).set(target, value);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Calls a static method of any access that takes no arguments. */
    static Object callStatic(Class<?> c, String name) {
        return invoke(c, null, name);
    }

    /** Calls an instance method of any access, declared by the target's class, that takes no arguments. */
    static Object call(Object target, String name) {
        return invoke(target.getClass(), target, name);
    }

    /** A new instance of {@code c} from its no-argument constructor of any access. */
    static Object newInstance(Class<?> c) {
        try {
            var ctor = c.getDeclaredConstructor();
            ctor.setAccessible(true);
            return ctor.newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot make a " + c.getName() + ": " + e, e);
        }
    }

    private static Object invoke(Class<?> c, Object target, String name) {
        try {
            Method m = c.getDeclaredMethod(name);
            m.setAccessible(true);
            return m.invoke(target);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot call " + c.getName() + "." + name + "(): " + e, e);
        }
    }

    /** The field declared by {@code c} or the nearest superclass. */
    private static Field field(Class<?> c, String name) {
        for (Class<?> k = c; k != null; k = k.getSuperclass()) {
            try {
                Field f = k.getDeclaredField(name);
                f.setAccessible(true);
                return f;
            } catch (NoSuchFieldException e) {
                // look further up
            }
        }
        throw new IllegalStateException("no field " + name + " in " + c.getName() + " (not Hadoop 2.2.0?)");
    }
}
