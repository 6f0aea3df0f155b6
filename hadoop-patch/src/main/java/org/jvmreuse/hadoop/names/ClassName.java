package org.jvmreuse.hadoop.names;

/** A class by its binary name (a nested class after a '$'), and the names of its members. */
public record ClassName(String name) implements HadoopName {
    @Override
    public ClassName owner() {
        return this;
    }

    public ClassName nested(String simpleName) {
        return new ClassName(name + "$" + simpleName);
    }

    /** A static field the code reads as a {@code type} (a binary or primitive type name). */
    public FieldName staticField(String field, String type) {
        return new FieldName(this, field, true, type, false);
    }

    /** A static field the code sets, so it must not be final. */
    public FieldName settableStaticField(String field, String type) {
        return new FieldName(this, field, true, type, true);
    }

    /** An instance field the code reads. */
    public FieldName field(String field, String type) {
        return new FieldName(this, field, false, type, false);
    }

    /** An instance field the code sets. */
    public FieldName settableField(String field, String type) {
        return new FieldName(this, field, false, type, true);
    }

    /** A static method without parameters that the code calls. */
    public MethodName staticMethod(String method) {
        return new MethodName(this, method, true);
    }

    /** An instance method without parameters that the code calls. */
    public MethodName method(String method) {
        return new MethodName(this, method, false);
    }

    /** The constructor without parameters, which the code calls. */
    public MethodName constructor() {
        return new MethodName(this, MethodName.CONSTRUCTOR, false);
    }

    @Override
    public String toString() {
        return name;
    }
}
