package org.jvmreuse.hadoop.names;

/**
 * A class, field or method of Hadoop (or of a library it bundles: log4j, commons-logging, Guice)
 * that this library's resets and hooks reach by name, by reflection or in a launch script, where
 * the compiler cannot see it. {@link HadoopNames} holds every one; {@link HadoopNamesCheck}
 * checks them against a Hadoop version's jars.
 */
public sealed interface HadoopName permits ClassName, FieldName, MethodName, Overloads {
    /** The class that declares the name (a class: itself). */
    ClassName owner();
}
