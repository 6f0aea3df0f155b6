package org.jvmreuse.pool.slot.globals;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jvmreuse.pool.jdk.JdkInternals;

/**
 * JDK defaults held in plain static fields ({@code Authenticator.setDefault}, a set-once socket
 * factory...): each field is read before a run and written back after it if the run changed it,
 * which also makes a set-once setter settable again, as in a new JVM.
 */
final class StaticFields implements GlobalState {
    private final String name;
    private final List<Field> fields = new ArrayList<>();

    StaticFields(String name) {
        this.name = name;
    }

    /** Adds {@code className}'s static field, the first of {@code names} it declares. */
    StaticFields field(String className, String... names) {
        fields.add(JdkInternals.field(className, names));
        return this;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Snapshot capture() {
        Object[] values = new Object[fields.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = JdkInternals.get(fields.get(i), null);
        }
        return runLoader -> {
            for (int i = 0; i < values.length; i++) {
                Field field = fields.get(i);
                // equals for the boxed flags, identity for the rest (a fresh default is another object)
                Object now = JdkInternals.get(field, null);
                boolean same = field.getType().isPrimitive() ? Objects.equals(now, values[i]) : now == values[i];
                if (!same) {
                    JdkInternals.set(field, null, values[i]);
                }
            }
            return null;
        };
    }
}
