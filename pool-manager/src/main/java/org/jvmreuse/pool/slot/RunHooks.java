package org.jvmreuse.pool.slot;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;
import org.jvmreuse.pool.jdk.JdkInternals;
import org.jvmreuse.pool.service.ServicePort;

/**
 * Resets that a shared library brings for its own statics, found through the resource
 * {@value #RESOURCE} of its shared loader: one class name per line, each class with
 * {@code public static void beforeRun(BiConsumer<String,String> setenv)} and
 * {@code public static void afterRun(boolean exitHooks)}. Only JDK types cross between pool and
 * library, so the library needs no pool classes. The classes are initialised when the shared
 * loader is created, outside any run, so what their initialisers register belongs to the slot.
 * A class may also have {@code public static void attach(Map<String,Object> port)}: it is called
 * once then, with the slot's {@link ServicePort} (how the MPI shuffle reaches the slot's MPI) and
 * {@value #FIND_LOADED_CLASS}, a {@code Function<String,Class<?>>} that answers
 * {@code findLoadedClass} of the library's shared loader (protected, and the library's code gets
 * no deep reflection into java.lang: that is opened to the pool's code only), and
 * {@value #SLOT_THREAD}, a {@code Consumer<Thread>} that marks a thread the library makes to
 * outlive runs (a worker of a pool it keeps in a static) as the slot's: otherwise a thread
 * started during a run is the run's, and ends with it.
 * And {@code public static void beforeEnd()}: called when a run ends, after its JVM shutdown hooks
 * and before its threads are interrupted and stopped. A JVM's threads vanish at once; a slot's die
 * one by one, and a thread that sees another die (a broken connection) may act on it, say by
 * repeating a call the other side already took. There the library stops such effects.
 */
final class RunHooks {
    static final String RESOURCE = "META-INF/jvmreuse/run-hooks";
    static final String FIND_LOADED_CLASS = "findLoadedClass";
    static final String SLOT_THREAD = "slotThread";
    private static final Method FIND_LOADED = JdkInternals.method("java.lang.ClassLoader", "findLoadedClass", String.class);
    static final RunHooks NONE = new RunHooks(List.of(), List.of(), List.of());

    private final List<Method> before;
    private final List<Method> end;
    private final List<Method> after;

    private RunHooks(List<Method> before, List<Method> end, List<Method> after) {
        this.before = before;
        this.end = end;
        this.after = after;
    }

    /** The hooks a shared loader declares; a declared class that is not usable is an error. */
    static RunHooks of(ClassLoader shared, ServicePort port, Consumer<Thread> slotThreads) throws IOException {
        List<Method> before = new ArrayList<>();
        List<Method> end = new ArrayList<>();
        List<Method> after = new ArrayList<>();
        for (URL list : Collections.list(shared.getResources(RESOURCE))) {
            for (String name : NameListResource.read(list)) {
                Class<?> hooks;
                try {
                    hooks = Class.forName(name, true, shared);
                } catch (ClassNotFoundException | LinkageError e) {
                    throw new IOException("run hook class " + name + " (listed in " + list + ") cannot be loaded: " + e, e);
                }
                before.add(staticMethod(hooks, "beforeRun", BiConsumer.class));
                after.add(staticMethod(hooks, "afterRun", boolean.class));
                optionalStaticMethod(hooks, "beforeEnd").ifPresent(end::add);
                attach(hooks, shared, port, slotThreads);
            }
        }
        return before.isEmpty() ? NONE : new RunHooks(List.copyOf(before), List.copyOf(end), List.copyOf(after));
    }

    private static Optional<Method> optionalStaticMethod(Class<?> hooks, String name, Class<?>... parameters) throws IOException {
        Method m;
        try {
            m = hooks.getMethod(name, parameters);
        } catch (NoSuchMethodException e) {
            return Optional.empty();
        }
        if (!Modifier.isStatic(m.getModifiers())) {
            throw new IOException("run hook class " + hooks.getName() + ": " + name + " must be static");
        }
        return Optional.of(m);
    }

    private static void attach(Class<?> hooks, ClassLoader shared, ServicePort port, Consumer<Thread> slotThreads)
            throws IOException {
        Optional<Method> attach = optionalStaticMethod(hooks, "attach", Map.class);
        if (attach.isPresent()) {
            Function<String, Class<?>> findLoaded = name -> findLoaded(shared, name);
            call(attach.get(), hooks.getClassLoader(),
                    port.asMap(Map.of(FIND_LOADED_CLASS, findLoaded, SLOT_THREAD, slotThreads)));
        }
    }

    private static Class<?> findLoaded(ClassLoader loader, String name) {
        try {
            return (Class<?>) FIND_LOADED.invoke(loader, name);
        } catch (IllegalAccessException | InvocationTargetException e) {
            throw new IllegalStateException("cannot ask " + loader + " for " + name, e);
        }
    }

    private static Method staticMethod(Class<?> hooks, String name, Class<?> parameter) throws IOException {
        try {
            Method m = hooks.getMethod(name, parameter);
            if (Modifier.isStatic(m.getModifiers())) {
                return m;
            }
        } catch (NoSuchMethodException e) {
            // reported below
        }
        throw new IOException("run hook class " + hooks.getName() + " lacks public static void " + name
                + "(" + parameter.getSimpleName() + ")");
    }

    /** Before the program starts, with the run's environment, properties and directory in place. */
    void beforeRun(ClassLoader runLoader, BiConsumer<String, String> setenv) {
        for (Method m : before) {
            call(m, runLoader, setenv);
        }
    }

    /** When the run ends, after its shutdown hooks, before its threads are ended. */
    void beforeEnd(ClassLoader runLoader) {
        for (Method m : end) {
            call(m, runLoader);
        }
    }

    /** After the run's hooks and threads have ended, before the slot restores its own state. */
    void afterRun(ClassLoader runLoader, boolean exitHooks) {
        for (Method m : after) {
            call(m, runLoader, exitHooks);
        }
    }

    private static void call(Method m, ClassLoader runLoader, Object... arguments) {
        Thread self = Thread.currentThread();
        ClassLoader previous = self.getContextClassLoader();
        self.setContextClassLoader(runLoader);
        try {
            m.invoke(null, arguments);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException(m.getDeclaringClass().getName() + "." + m.getName() + " failed: "
                    + e.getCause(), e.getCause());
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("cannot call " + m, e);
        } finally {
            self.setContextClassLoader(previous);
        }
    }
}
