package org.jvmreuse.pool.slot.globals;

import java.lang.reflect.Field;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jvmreuse.pool.jdk.JdkInternals;

/**
 * {@code ObjectInputFilter.Config}: the JVM-wide serial filter and filter factory, both settable
 * once, and the flag that forbids setting the factory once it has been used. All three are put
 * back, so the next run can set them as in a new JVM.
 */
final class SerialFilter implements GlobalState {
    private static final String CONFIG = "java.io.ObjectInputFilter$Config";
    private final Field filter = JdkInternals.field(CONFIG, "serialFilter");
    private final Field factory = JdkInternals.field(CONFIG, "serialFilterFactory");
    private final AtomicBoolean noReplace = (AtomicBoolean) JdkInternals.get(
            JdkInternals.field(CONFIG, "filterFactoryNoReplace"), null);

    @Override
    public String name() {
        return "serial filter";
    }

    @Override
    public Snapshot capture() {
        Object filterBefore = JdkInternals.get(filter, null);
        Object factoryBefore = JdkInternals.get(factory, null);
        boolean noReplaceBefore = noReplace.get();
        return runLoader -> {
            JdkInternals.set(filter, null, filterBefore);
            JdkInternals.set(factory, null, factoryBefore);
            noReplace.set(noReplaceBefore);
            return null;
        };
    }
}
