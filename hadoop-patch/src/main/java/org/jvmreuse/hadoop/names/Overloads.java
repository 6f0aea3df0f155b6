package org.jvmreuse.hadoop.names;

import java.util.List;

/**
 * Every overload of a method that a hook overrides, by parameter types (binary names): Hadoop
 * calls one of them, so the version must declare exactly these, or Hadoop may call one the hook
 * does not override and the hook is passed by without an error. With the name
 * {@value MethodName#CONSTRUCTOR}: every constructor of {@code owner}, which the code calls.
 */
public record Overloads(ClassName owner, String name, List<List<String>> signatures) implements HadoopName {
    public Overloads {
        signatures = signatures.stream().map(List::copyOf).toList();
    }

    @Override
    public String toString() {
        return owner + "." + name;
    }
}
