package org.jvmreuse.pool.slot;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.jvmreuse.pool.jdk.JdkInternals;

/**
 * Every virtual thread (JDK 21+), which no thread group lists: the JDK tracks them in a tree of
 * thread containers (for thread dumps) rooted at {@code jdk.internal.vm.ThreadContainers.root()}.
 * Before JDK 21 there are none.
 */
final class VirtualThreads {
    private static final String CONTAINER = "jdk.internal.vm.ThreadContainer";
    private final Method root;
    private final Method children;
    private final Method threads;
    private final Method isVirtual;

    VirtualThreads() {
        boolean present = Runtime.version().feature() >= 21;
        root = present ? JdkInternals.method("jdk.internal.vm.ThreadContainers", "root") : null;
        children = present ? JdkInternals.method(CONTAINER, "children") : null;
        threads = present ? JdkInternals.method(CONTAINER, "threads") : null;
        isVirtual = present ? JdkInternals.method("java.lang.Thread", "isVirtual") : null;
    }

    boolean isVirtual(Thread t) {
        try {
            return isVirtual != null && (Boolean) isVirtual.invoke(t);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The threads of every container (platform threads among them on some JDKs). */
    List<Thread> all() {
        List<Thread> all = new ArrayList<>();
        if (root != null) {
            try {
                collect(root.invoke(null), all);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("cannot list virtual threads", e);
            }
        }
        return all;
    }

    @SuppressWarnings("unchecked")
    private void collect(Object container, List<Thread> into) throws ReflectiveOperationException {
        try (Stream<Thread> own = (Stream<Thread>) threads.invoke(container)) {
            own.forEach(into::add);
        }
        List<Object> nested;
        try (Stream<Object> kids = (Stream<Object>) children.invoke(container)) {
            nested = kids.toList();
        }
        for (Object child : nested) {
            collect(child, into);
        }
    }
}
