package org.jvmreuse.it.programs;

import java.lang.reflect.AccessibleObject;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code PoolReach CLASS...}: how much of the pool a program can use through what it is handed.
 * It gathers the classes of the objects a program can reach without asking for the pool (its
 * thread group and its parents, the frames under {@code main}, its class loader, the standard
 * streams, properties, environment and handlers, every live thread's class, group, context
 * loader and handler), then loads each named CLASS through every class loader met on the way.
 * Prints, on standard output, how many members of pool classes ({@code org.jvmreuse.pool.*}) it
 * could make accessible (0 under {@code java}, where there are none); on standard error each pool
 * class it reached, and how many.
 */
public final class PoolReach {
    public static void main(String[] args) {
        Set<Class<?>> reached = new LinkedHashSet<>();
        Set<ClassLoader> loaders = new LinkedHashSet<>();
        for (ThreadGroup g = Thread.currentThread().getThreadGroup(); g != null; g = g.getParent()) {
            reached.add(g.getClass());
        }
        StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE)
                .forEach(frame -> reached.add(frame.getDeclaringClass()));
        for (Object handed : new Object[] {PoolReach.class.getClassLoader(), ClassLoader.getSystemClassLoader(),
                System.out, System.err, System.in, System.getProperties(), System.getenv(),
                Thread.getDefaultUncaughtExceptionHandler(), Thread.currentThread().getUncaughtExceptionHandler()}) {
            if (handed != null) {
                reached.add(handed.getClass());
            }
        }
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            reached.add(thread.getClass());
            reached.add(thread.getUncaughtExceptionHandler().getClass());
            if (thread.getThreadGroup() != null) {
                reached.add(thread.getThreadGroup().getClass());
            }
            if (thread.getContextClassLoader() != null) {
                loaders.add(thread.getContextClassLoader());
            }
        }
        for (Class<?> c : reached) {
            if (c.getClassLoader() != null) {
                loaders.add(c.getClassLoader());
            }
        }
        for (ClassLoader loader : loaders) {
            reached.add(loader.getClass());
            for (String name : args) {
                try {
                    reached.add(Class.forName(name, false, loader));
                } catch (ClassNotFoundException | LinkageError notThere) {
                    // not through this loader
                }
            }
        }
        int pool = 0;
        int usable = 0;
        for (Class<?> c : reached) {
            if (!c.getName().startsWith("org.jvmreuse.pool.")) {
                continue;
            }
            pool++;
            System.err.println("reached " + c.getName() + " in " + c.getModule());
            List<AccessibleObject> members = new ArrayList<>();
            try {
                members.addAll(List.of(c.getDeclaredMethods()));
                members.addAll(List.of(c.getDeclaredFields()));
                members.addAll(List.of(c.getDeclaredConstructors()));
            } catch (LinkageError unresolvable) {
                continue;
            }
            for (AccessibleObject member : members) {
                if (member.trySetAccessible()) {
                    usable++;
                }
            }
        }
        System.err.println("pool classes reached: " + pool);
        System.out.println("pool members usable: " + usable);
    }
}
