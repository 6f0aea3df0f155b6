package org.jvmreuse.pool.slot.globals;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import org.jvmreuse.pool.jdk.JdkInternals;

/**
 * Notification listeners a run added to the memory MXBean (usage threshold notifications) or to
 * the garbage collector MXBeans (GC notifications): they would keep the run's loader and hear the
 * next run's events. These MXBeans replace their listener list on every change, so keeping the
 * list's reference is the capture.
 */
final class MXBeanListeners implements GlobalState {
    private final Field listenerList = JdkInternals.field("sun.management.NotificationEmitterSupport", "listenerList");
    private final Field lock = JdkInternals.field("sun.management.NotificationEmitterSupport", "listenerLock");
    private final List<Object> emitters = new ArrayList<>();

    MXBeanListeners() {
        emitters.add(ManagementFactory.getMemoryMXBean());
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            emitters.add(gc);
        }
        emitters.removeIf(e -> !listenerList.getDeclaringClass().isInstance(e));
    }

    @Override
    public String name() {
        return "MXBean notification listeners";
    }

    @Override
    public Snapshot capture() {
        Object[] before = new Object[emitters.size()];
        for (int i = 0; i < before.length; i++) {
            before[i] = JdkInternals.get(listenerList, emitters.get(i));
        }
        return runLoader -> {
            for (int i = 0; i < before.length; i++) {
                Object emitter = emitters.get(i);
                synchronized (listenerLock(emitter)) {
                    JdkInternals.set(listenerList, emitter, before[i]);
                }
            }
            return null;
        };
    }

    private Object listenerLock(Object emitter) {
        return JdkInternals.get(lock, emitter);
    }
}
