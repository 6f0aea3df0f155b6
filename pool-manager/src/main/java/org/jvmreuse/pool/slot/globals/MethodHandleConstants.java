package org.jvmreuse.pool.slot.globals;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Map;
import org.jvmreuse.pool.jdk.JdkInternals;

/**
 * {@code MethodHandles.Lookup} keeps the method handles it links for constants (the targets of
 * lambdas and method references, {@code ldc} of a method handle) in a JDK-wide table for the
 * JVM's lifetime when the member is public and its class's loader is the system class loader or
 * one of its ancestors, which never go away in a JVM. During a run the system class loader is
 * the run's (SystemLoaderSwitch), so the run's entries would keep its classes and loader for the
 * slot's lifetime (every run's, found by ClassReclamationTest): they leave the table after the run.
 */
final class MethodHandleConstants implements GlobalState {
    private final Map<?, ?> table = (Map<?, ?>) JdkInternals.get(
            JdkInternals.field("java.lang.invoke.MethodHandles$Lookup", "LOOKASIDE_TABLE"), null);
    private final Method declaringClass = JdkInternals.method("java.lang.invoke.MemberName", "getDeclaringClass");

    @Override
    public String name() {
        return "method handle constants";
    }

    @Override
    public Snapshot capture() {
        return runLoader -> {
            if (runLoader != null) {
                table.keySet().removeIf(member -> loaderOf(member) == runLoader);
            }
            return null;
        };
    }

    private ClassLoader loaderOf(Object member) {
        try {
            return ((Class<?>) declaringClass.invoke(member)).getClassLoader();
        } catch (IllegalAccessException | InvocationTargetException e) {
            throw new IllegalStateException("cannot read a method handle constant's class", e);
        }
    }
}
