package org.jvmreuse.hadoop.task.job;

import java.lang.reflect.Field;
import java.lang.reflect.Method;

/** Hadoop's non-public statics, as a program reaches them by reflection. */
final class Statics {
    private Statics() {
    }

    static Object get(Class<?> c, String field) throws ReflectiveOperationException {
        Field f = c.getDeclaredField(field);
        f.setAccessible(true);
        return f.get(null);
    }

    static Object call(Class<?> c, String method, Class<?>[] types, Object... args) throws ReflectiveOperationException {
        Method m = c.getDeclaredMethod(method, types);
        m.setAccessible(true);
        return m.invoke(null, args);
    }
}
