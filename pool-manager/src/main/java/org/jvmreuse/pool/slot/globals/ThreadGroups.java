package org.jvmreuse.pool.slot.globals;

import java.lang.ref.WeakReference;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import org.jvmreuse.pool.jdk.JdkInternals;

/**
 * The slot's thread groups, which a run reaches from its threads: the slot's group, its
 * ancestors up to the system group and the groups under it (runs' main threads start in one). A run
 * that lowers a group's maximum priority would cap every thread later runs start; one that marks
 * a group daemon (Java 17) has it destroyed when its last thread ends, after which no thread can
 * start in it. Groups a run created under the slot's groups are destroyed (Java 17 keeps them, and
 * a ThreadGroup subclass of the run's would keep its loader) or, from Java 19, where destroy does
 * nothing, taken out of their parent's weakly held subgroups (which count them until a GC).
 */
@SuppressWarnings("deprecation")
final class ThreadGroups implements GlobalState {
    private final ThreadGroup slotGroup = Thread.currentThread().getThreadGroup();
    /** Java 19+ holds subgroups weakly, in these (null on Java 17, whose destroy() takes them out). */
    private final Field weaks = optionalField("weaks");
    private final Field nweaks = optionalField("nweaks");
    private final Method removeWeak = weaks == null ? null
            : JdkInternals.method("java.lang.ThreadGroup", "removeWeak", int.class);

    @Override
    public String name() {
        return "thread groups";
    }

    @Override
    public Snapshot capture() {
        List<ThreadGroup> groups = new ArrayList<>();
        for (ThreadGroup g = slotGroup; g != null; g = g.getParent()) {
            groups.add(0, g); // the system group first: a child's maximum is capped by its parent's
        }
        List<ThreadGroup> children = children();
        groups.addAll(children);
        int[] priorities = new int[groups.size()];
        boolean[] daemon = new boolean[groups.size()];
        for (int i = 0; i < priorities.length; i++) {
            priorities[i] = groups.get(i).getMaxPriority();
            daemon[i] = groups.get(i).isDaemon();
        }
        Set<ThreadGroup> before = Collections.newSetFromMap(new IdentityHashMap<>());
        before.addAll(children);
        return runLoader -> {
            for (ThreadGroup added : children()) {
                if (!before.contains(added) && !added.isDestroyed()) {
                    try {
                        added.destroy();
                    } catch (IllegalThreadStateException e) {
                        // a thread of the run is still in it: the slot retires for that thread
                    }
                    forget(added);
                }
            }
            for (int i = 0; i < priorities.length; i++) {
                ThreadGroup g = groups.get(i);
                if (g.isDestroyed()) {
                    return "the run made thread group " + g.getName() + " a daemon group and it was destroyed";
                }
                if (g.isDaemon() != daemon[i]) {
                    g.setDaemon(daemon[i]);
                }
                if (g.getMaxPriority() != priorities[i]) {
                    g.setMaxPriority(priorities[i]);
                }
            }
            return null;
        };
    }

    /** Takes a group out of its parent's weakly held subgroups (until a GC, the next run would count it). */
    private void forget(ThreadGroup group) {
        if (weaks == null) {
            return;
        }
        ThreadGroup parent = group.getParent();
        synchronized (parent) {
            WeakReference<?>[] refs = (WeakReference<?>[]) JdkInternals.get(weaks, parent);
            int n = (Integer) JdkInternals.get(nweaks, parent);
            for (int i = 0; refs != null && i < n; i++) {
                if (refs[i].get() == group) {
                    try {
                        removeWeak.invoke(parent, i);
                    } catch (ReflectiveOperationException e) {
                        throw new IllegalStateException("cannot take thread group " + group.getName() + " out", e);
                    }
                    return;
                }
            }
        }
    }

    private static Field optionalField(String name) {
        try {
            ThreadGroup.class.getDeclaredField(name);
        } catch (NoSuchFieldException e) {
            return null;
        }
        return JdkInternals.field("java.lang.ThreadGroup", name);
    }

    private List<ThreadGroup> children() {
        ThreadGroup[] children = new ThreadGroup[slotGroup.activeGroupCount() + 4];
        int n;
        while ((n = slotGroup.enumerate(children, true)) == children.length) {
            children = new ThreadGroup[children.length * 2];
        }
        return Arrays.asList(children).subList(0, n);
    }
}
