package org.jvmreuse.hadoop.task;

import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.util.Optional;
import java.util.function.Function;
import org.jvmreuse.hadoop.names.ClassName;

/**
 * Which classes are the slot's (the shared loader's, holding Hadoop and this jar, and its
 * ancestors') and which belong to a run (anything else: the task's loader, a job class loader
 * it made, ...). Entries that refer to a run's classes must leave shared registries, or they
 * keep its loader alive and leak into the next task.
 */
final class SharedClasses {
    private static final ClassLoader SHARED = SharedClasses.class.getClassLoader();
    private static volatile Function<String, Class<?>> findLoaded;

    private SharedClasses() {
    }

    static ClassLoader loader() {
        return SHARED;
    }

    /**
     * The named class if the shared loader has loaded it, without loading or initialising it:
     * a class no run has touched holds nothing to reset. Reading a static field initialises a
     * loaded class, which is as harmless as the task having used it (the reset that follows
     * undoes what the initialiser registered).
     */
    static Optional<Class<?>> loaded(ClassName name) {
        Function<String, Class<?>> find = findLoaded;
        if (find == null) {
            find = reflectiveFindLoaded();
            findLoaded = find;
        }
        return Optional.ofNullable(find.apply(name.name()));
    }

    /**
     * How the slot answers {@code findLoadedClass} of the shared loader (given to the run hooks'
     * {@code attach}): the slot opens java.lang to its own code only, not to this library's.
     */
    static void findLoadedWith(Function<String, Class<?>> find) {
        findLoaded = find;
    }

    /** Whether {@code loader} is the shared loader or one of its ancestors (null: the boot loader). */
    static boolean isShared(ClassLoader loader) {
        for (ClassLoader l = SHARED; l != null; l = l.getParent()) {
            if (l == loader) {
                return true;
            }
        }
        return loader == null;
    }

    /**
     * Whether {@code o} ties a shared registry to a run: a run's class, a constructor or method
     * of one, or an instance of one. Null and shared objects do not.
     */
    static boolean isRunOwned(Object o) {
        if (o == null) {
            return false;
        }
        Class<?> c;
        if (o instanceof Class<?> cls) {
            c = cls;
        } else if (o instanceof Constructor<?> ctor) {
            c = ctor.getDeclaringClass();
        } else if (o instanceof Method m) {
            c = m.getDeclaringClass();
        } else {
            c = o.getClass();
        }
        return !isShared(c.getClassLoader());
    }

    /** Outside a slot (this module's tests): needs --add-opens java.base/java.lang=ALL-UNNAMED. */
    private static Function<String, Class<?>> reflectiveFindLoaded() {
        Method m;
        try {
            m = ClassLoader.class.getDeclaredMethod("findLoadedClass", String.class);
            m.setAccessible(true);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("ClassLoader.findLoadedClass is not accessible: outside a slot, run with"
                    + " --add-opens java.base/java.lang=ALL-UNNAMED; in a slot, the slot gives it to attach(): " + e, e);
        }
        return name -> {
            try {
                return (Class<?>) m.invoke(SHARED, name);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("cannot ask the shared loader for " + name, e);
            }
        };
    }
}
