package org.jvmreuse.hadoop.names;

/**
 * A field declared by {@code owner}: whether it is static, the type the code reads it as or
 * stores in it (the field's declared type must be that type, a subtype or a supertype; a
 * primitive exactly), and whether the code sets it (then a static field must not be final).
 */
public record FieldName(ClassName owner, String name, boolean isStatic, String type, boolean settable)
        implements HadoopName {
    @Override
    public String toString() {
        return owner + "." + name;
    }
}
