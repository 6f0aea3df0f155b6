package org.jvmreuse.hadoop.names;

/** A method without parameters declared by {@code owner} (its constructor: {@value #CONSTRUCTOR}). */
public record MethodName(ClassName owner, String name, boolean isStatic) implements HadoopName {
    static final String CONSTRUCTOR = "<init>";

    @Override
    public String toString() {
        return owner + "." + name + "()";
    }
}
