package org.jvmreuse.pool.slot;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.jvmreuse.boot.RunHook;
import org.jvmreuse.boot.ServicePort;
import org.jvmreuse.boot.SlotAccess;
import org.jvmreuse.pool.jdk.JdkInternals;

/**
 * The {@link RunHook}s a shared library brings for its own statics, found with
 * {@link ServiceLoader} in its shared loader ({@code META-INF/services/org.jvmreuse.boot.RunHook})
 * and made when that loader is created, outside any run, so what their classes register while
 * they initialise belongs to the slot. Each is attached once to what the slot lends it
 * ({@link SlotAccess}: the slot's MPI, {@code findLoadedClass} of its shared loader, a way to
 * mark threads that outlive runs as the slot's, and actions run at a run's first use of its
 * classes), then called around every run with the run's loader as context loader.
 */
final class RunHooks {
    private static final Method FIND_LOADED = JdkInternals.method("java.lang.ClassLoader", "findLoadedClass", String.class);
    static final RunHooks NONE = new RunHooks(List.of(), List.of());

    static {
        // The pool is a named module: ServiceLoader serves it only the services it declares it uses.
        RunHooks.class.getModule().addUses(RunHook.class);
    }

    private final List<RunHook> hooks;
    /** The numbers of the first-use actions the hooks gave ({@link FirstUses}). */
    private final List<Integer> firstUses;

    private RunHooks(List<RunHook> hooks, List<Integer> firstUses) {
        this.hooks = hooks;
        this.firstUses = firstUses;
    }

    /** The hooks a shared loader provides; one that cannot be made is an error. */
    static RunHooks of(ClassLoader shared, ServicePort port, Consumer<Thread> slotThreads) throws IOException {
        List<RunHook> hooks = new ArrayList<>();
        Access access = new Access(port, shared, slotThreads, new CopyOnWriteArrayList<>());
        boolean made = false;
        try {
            for (RunHook hook : ServiceLoader.load(RunHook.class, shared)) {
                hook.attach(access);
                hooks.add(hook);
            }
            made = true;
        } catch (ServiceConfigurationError e) {
            throw new IOException("a run hook of the shared class path cannot be made: " + e.getMessage(), e);
        } finally {
            if (!made) { // the loader is closed: the first-use actions its hooks gave go with it
                access.firstUses().forEach(FirstUses.get()::forget);
            }
        }
        return hooks.isEmpty() ? NONE : new RunHooks(List.copyOf(hooks), List.copyOf(access.firstUses()));
    }

    /** The shared loader is closed: its first-use actions run no more. */
    void close() {
        firstUses.forEach(FirstUses.get()::forget);
    }

    /** Before the program starts, with the run's environment, properties and directory in place. */
    void beforeRun(ClassLoader runLoader, BiConsumer<String, String> setenv) {
        for (RunHook hook : hooks) {
            call(hook, runLoader, () -> hook.beforeRun(setenv));
        }
        FirstUses.get().beginRun(); // what the hooks themselves use is not the run's
    }

    /** When the run ends, after its shutdown hooks, before its threads are ended. */
    void beforeEnd(ClassLoader runLoader) {
        for (RunHook hook : hooks) {
            call(hook, runLoader, hook::beforeEnd);
        }
    }

    /** After the run's hooks and threads have ended, before the slot restores its own state. */
    void afterRun(ClassLoader runLoader, boolean exitHooks) {
        FirstUses.get().endRun();
        for (RunHook hook : hooks) {
            call(hook, runLoader, () -> hook.afterRun(exitHooks));
        }
    }

    private static void call(RunHook hook, ClassLoader runLoader, Runnable step) {
        Thread self = Thread.currentThread();
        ClassLoader previous = self.getContextClassLoader();
        self.setContextClassLoader(runLoader);
        try {
            step.run();
        } catch (RuntimeException | Error e) {
            throw new IllegalStateException(hook.getClass().getName() + " failed: " + e, e);
        } finally {
            self.setContextClassLoader(previous);
        }
    }

    /** What the slot lends one shared loader's hooks. */
    private record Access(ServicePort port, ClassLoader shared, Consumer<Thread> slotThreads, List<Integer> firstUses)
            implements SlotAccess {
        @Override
        public Class<?> findLoadedClass(String name) {
            try {
                return (Class<?>) FIND_LOADED.invoke(shared, name);
            } catch (IllegalAccessException | InvocationTargetException e) {
                throw new IllegalStateException("cannot ask " + shared + " for " + name, e);
            }
        }

        @Override
        public void slotThread(Thread thread) {
            slotThreads.accept(thread);
        }

        @Override
        public void onFirstUse(List<Class<?>> classes, Runnable action) {
            for (Class<?> c : classes) {
                if (c.getClassLoader() != shared) {
                    throw new IllegalArgumentException(c + " is not of the library's shared loader " + shared);
                }
            }
            firstUses.add(FirstUses.get().add(List.copyOf(classes), action));
        }
    }
}
