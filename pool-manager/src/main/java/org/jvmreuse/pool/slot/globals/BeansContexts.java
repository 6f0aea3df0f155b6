package org.jvmreuse.pool.slot.globals;

import java.lang.reflect.Array;
import java.lang.reflect.Field;
import org.jvmreuse.pool.jdk.JdkInternals;

/**
 * java.beans keeps {@code PropertyEditorManager}'s editors and search path, the
 * {@code Introspector}'s BeanInfo search path and cache and {@code Beans}' design-time and GUI
 * flags in one context per thread group, and the slot's thread groups outlive runs. After each
 * run every context goes back to what a new JVM starts with (built lazily on next use); the
 * slot itself keeps nothing there. Capture reads nothing.
 */
final class BeansContexts implements GlobalState {
    private static final String CONTEXT = "java.beans.ThreadGroupContext";
    private static final String MAP = "java.beans.WeakIdentityMap";
    private final Object contexts = JdkInternals.get(JdkInternals.field(CONTEXT, "contexts"), null);
    private final Field table = JdkInternals.field(MAP, "table");
    private final Field value = JdkInternals.field(MAP + "$Entry", "value");
    private final Field next = JdkInternals.field(MAP + "$Entry", "next");
    private final Field[] resetToNull = {
        JdkInternals.field(CONTEXT, "propertyEditorFinder"),
        JdkInternals.field(CONTEXT, "beanInfoFinder"),
        JdkInternals.field(CONTEXT, "beanInfoCache"),
        JdkInternals.field(CONTEXT, "isGuiAvailable"),
    };
    private final Field designTime = JdkInternals.field(CONTEXT, "isDesignTime");
    private final Snapshot reset = runLoader -> {
        Object entries = JdkInternals.get(table, contexts); // volatile: the map reads it unlocked too
        for (int i = 0; i < Array.getLength(entries); i++) {
            for (Object e = Array.get(entries, i); e != null; e = JdkInternals.get(next, e)) {
                resetContext(JdkInternals.get(value, e));
            }
        }
        return null;
    };

    @Override
    public String name() {
        return "java.beans registries (PropertyEditorManager, Introspector, Beans)";
    }

    @Override
    public Snapshot capture() {
        return reset;
    }

    private void resetContext(Object context) {
        if (context == null) {
            return;
        }
        synchronized (context) { // ThreadGroupContext's own lock for its finders and cache
            for (Field field : resetToNull) {
                JdkInternals.set(field, context, null);
            }
            JdkInternals.set(designTime, context, false);
        }
    }
}
