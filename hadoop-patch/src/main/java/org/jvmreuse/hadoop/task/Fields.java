package org.jvmreuse.hadoop.task;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.jvmreuse.hadoop.names.FieldName;
import org.jvmreuse.hadoop.names.MethodName;

/**
 * Reflective access to Hadoop's private fields and methods (Hadoop's classes are in unnamed modules),
 * by the names in {@link org.jvmreuse.hadoop.names.HadoopNames} only.
 */
final class Fields {
    private Fields() {
    }

    static Object getStatic(Class<?> c, FieldName name) {
        try {
            return field(c, name.name()).get(null);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    static void setStatic(Class<?> c, FieldName name, Object value) {
        try {
            field(c, name.name()).set(null, value);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    static Object get(Object target, FieldName name) {
        try {
            return field(target.getClass(), name.name()).get(target);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    static void set(Object target, FieldName name, Object value) {
        try {
            field(target.getClass(), name.name()).set(target, value);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Gives a static field its initial {@code value}: sets it where the name is settable (a plain
     * field), else sets the atomic (AtomicReference, AtomicInteger, AtomicBoolean) the final field holds.
     */
    static void resetStatic(Class<?> c, FieldName name, Object value) {
        if (name.settable()) {
            setStatic(c, name, value);
        } else {
            setAtomic(getStatic(c, name), value);
        }
    }

    /** As {@link #resetStatic}, for an instance field of {@code target}. */
    static void reset(Object target, FieldName name, Object value) {
        if (name.settable()) {
            set(target, name, value);
        } else {
            setAtomic(get(target, name), value);
        }
    }

    @SuppressWarnings("unchecked")
    private static void setAtomic(Object atomic, Object value) {
        if (atomic instanceof AtomicReference<?> reference) {
            ((AtomicReference<Object>) reference).set(value);
        } else if (atomic instanceof AtomicInteger integer) {
            integer.set((Integer) value);
        } else if (atomic instanceof AtomicBoolean bool) {
            bool.set((Boolean) value);
        } else {
            throw new IllegalStateException("not a settable field nor an atomic: " + atomic);
        }
    }

    /**
     * The object at the end of a path of fields: the first static, each next one read from the
     * object before it (an AtomicReference's value, where a field holds one).
     */
    static Object follow(Class<?> c, List<FieldName> path) {
        Object o = getStatic(c, path.get(0));
        for (FieldName next : path.subList(1, path.size())) {
            if (o instanceof AtomicReference<?> reference) {
                o = reference.get();
            }
            o = get(o, next);
        }
        return o;
    }

    /** Calls an instance method that takes no arguments as declared by its name's owner (an interface, say). */
    static Object callAsDeclared(Object target, MethodName name) {
        try {
            return invoke(Class.forName(name.owner().name(), false, target.getClass().getClassLoader()), target, name.name());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("no " + name.owner() + " for " + target.getClass().getName() + ": " + e, e);
        }
    }

    /** Calls a static method of any access that takes no arguments. */
    static Object callStatic(Class<?> c, MethodName name) {
        return invoke(c, null, name.name());
    }

    /** Calls an instance method of any access, declared by the target's class, that takes no arguments. */
    static Object call(Object target, MethodName name) {
        return invoke(target.getClass(), target, name.name());
    }

    /**
     * Calls a public method, declared or inherited, that takes no arguments, by its name alone:
     * for classes that differ between the versions of a library (Jetty 6 and 9).
     */
    static Object callPublic(Object target, String name) {
        try {
            Method m = target.getClass().getMethod(name);
            m.setAccessible(true); // a public method of a class that is not (a nested one)
            return m.invoke(target);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot call " + target.getClass().getName() + "." + name + "(): " + e, e);
        }
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
        throw new IllegalStateException("no field " + name + " in " + c.getName() + " (not the Hadoop of the names table?)");
    }
}
