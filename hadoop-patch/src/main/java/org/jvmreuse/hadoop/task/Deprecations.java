package org.jvmreuse.hadoop.task;

import static org.jvmreuse.hadoop.names.HadoopNames.ConfigurationReset.DEPRECATION_DELTA;

import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.List;
import org.apache.hadoop.conf.Configuration;

/**
 * Deprecated keys a class initialiser adds ({@link Registrations}), added again by the public calls
 * it uses: on 3.x all at once (addDeprecations: each addDeprecation copies every deprecation, some
 * 20 ms for HDFS's 80 where one call takes well under 1 ms), the deltas made once; on 2.x one by one.
 */
final class Deprecations {
    /** One deprecated key, as the initialiser gave it. */
    record Deprecation(String key, String[] newKeys, String message) {
    }

    private final List<Deprecation> keys;
    /** 3.x: Configuration.addDeprecations and its argument; null on 2.x. */
    private final Method addAll;
    private final Object deltas;

    Deprecations(List<Deprecation> keys) {
        this.keys = List.copyOf(keys);
        if (DEPRECATION_DELTA.isEmpty()) {
            addAll = null;
            deltas = null;
            return;
        }
        try {
            Class<?> delta = Class.forName(DEPRECATION_DELTA.get().owner().name(), true, Configuration.class.getClassLoader());
            Constructor<?> make = delta.getDeclaredConstructor(String.class, String[].class, String.class);
            make.setAccessible(true); // package-private: addDeprecation(String, String[], String) uses it
            deltas = Array.newInstance(delta, keys.size());
            for (int i = 0; i < keys.size(); i++) {
                Deprecation d = keys.get(i);
                Array.set(deltas, i, make.newInstance(d.key(), d.newKeys(), d.message()));
            }
            addAll = Configuration.class.getMethod("addDeprecations", deltas.getClass());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot make Configuration's deprecation deltas: " + e, e);
        }
    }

    @SuppressWarnings("deprecation") // 2.x's one-by-one call, deprecated on 3.x, which takes the other path
    void add() {
        if (addAll == null) {
            keys.forEach(d -> Configuration.addDeprecation(d.key(), d.newKeys(), d.message()));
            return;
        }
        try {
            addAll.invoke(null, deltas);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException("Configuration.addDeprecations failed: " + e.getCause(), e.getCause());
        }
    }
}
