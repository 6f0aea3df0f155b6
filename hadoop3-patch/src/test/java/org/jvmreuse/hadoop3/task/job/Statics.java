package org.jvmreuse.hadoop3.task.job;

import java.lang.reflect.Field;

/** Hadoop's non-public fields, as a program reaches them by reflection. */
final class Statics {
    private Statics() {
    }

    static Object get(Class<?> c, String field) throws ReflectiveOperationException {
        return declared(c, field).get(null);
    }

    static void set(Class<?> c, String field, Object value) throws ReflectiveOperationException {
        declared(c, field).set(null, value);
    }

    static Object field(Object target, String name) throws ReflectiveOperationException {
        return declared(target.getClass(), name).get(target);
    }

    private static Field declared(Class<?> c, String name) throws NoSuchFieldException {
        Field f = c.getDeclaredField(name);
        f.setAccessible(true);
        return f;
    }
}
