package org.jvmreuse.pool.slot;

import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.util.List;
import org.jvmreuse.pool.jdk.JdkInternals;

/**
 * The JVM's arguments as {@code RuntimeMXBean.getInputArguments()} reports them. The JDK reads
 * them once and keeps the list ({@code VMManagementImpl.vmArgs}), so a run can be shown its own
 * options, as a new JVM started with them shows them, instead of the slot's (the pool's agent,
 * its heap, its {@code -D}s).
 */
final class InputArguments {
    private final Object vm;
    private final Field arguments = JdkInternals.field("sun.management.VMManagementImpl", "vmArgs");
    /** The slot's list while a run's is shown. */
    private Object slots;
    private boolean shown;

    InputArguments() {
        try {
            vm = JdkInternals.method("sun.management.ManagementFactoryHelper", "getVMManagement").invoke(null);
        } catch (IllegalAccessException | InvocationTargetException e) {
            throw new IllegalStateException("cannot reach the JDK's VMManagement", e);
        }
    }

    /** Makes {@code run} what the JVM reports, until {@link #putBack}. */
    void show(List<String> run) {
        synchronized (vm) { // as VMManagementImpl.getVmArguments
            if (!shown) {
                slots = JdkInternals.get(arguments, vm);
                shown = true;
            }
            JdkInternals.set(arguments, vm, List.copyOf(run));
        }
    }

    /** What the JVM reported before {@link #show}, back (null: read afresh on the next call). */
    void putBack() {
        synchronized (vm) {
            if (shown) {
                JdkInternals.set(arguments, vm, slots);
                slots = null;
                shown = false;
            }
        }
    }
}
