package org.jvmreuse.pool.slot.globals;

import java.lang.reflect.Field;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.jvmreuse.pool.jdk.JdkInternals;

/**
 * The JDK's counters behind the names of threads a program does not name: {@code Thread-N},
 * {@code pool-N-thread-M} (Executors' default thread factory), {@code ForkJoinPool-N-worker-M}
 * (a new ForkJoinPool), {@code Timer-N}. A new JVM's program starts them from the JDK's start
 * values, which tasks show in their logs (Hadoop's layout prints the thread); in a slot they would
 * go on from the slot's own threads and every earlier run. A run starts them afresh; after it the
 * slot's values go back.
 */
final class ThreadNameCounters implements GlobalState {
    /** One counter: a static int field or a static AtomicInteger, and the value a new JVM starts it from. */
    private record Counter(Field field, int start) {
        int get() {
            Object value = JdkInternals.get(field, null);
            return value instanceof AtomicInteger atomic ? atomic.get() : (Integer) value;
        }

        void set(int value) {
            if (field.getType() == AtomicInteger.class) {
                ((AtomicInteger) JdkInternals.get(field, null)).set(value);
            } else {
                JdkInternals.set(field, null, value);
            }
        }
    }

    private final List<Counter> counters = List.of(
            Runtime.version().feature() >= 19
                    ? new Counter(JdkInternals.field("java.lang.Thread$ThreadNumbering", "next"), 0)
                    : new Counter(JdkInternals.field("java.lang.Thread", "threadInitNumber"), 0),
            new Counter(JdkInternals.field("java.util.concurrent.Executors$DefaultThreadFactory", "poolNumber"), 1),
            new Counter(JdkInternals.field("java.util.concurrent.ForkJoinPool", "poolIds"), 0),
            new Counter(JdkInternals.field("java.util.Timer", "nextSerialNumber"), 0));

    @Override
    public String name() {
        return "thread name counters";
    }

    @Override
    public Snapshot capture() {
        int[] slots = new int[counters.size()];
        for (int i = 0; i < slots.length; i++) {
            slots[i] = counters.get(i).get();
            counters.get(i).set(counters.get(i).start());
        }
        return runLoader -> {
            for (int i = 0; i < slots.length; i++) {
                counters.get(i).set(slots[i]);
            }
            return null;
        };
    }
}
