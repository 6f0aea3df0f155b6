package org.jvmreuse.it.hadoop.jobs;

/** A class that each test job jar defines in its own way (the jars replace this one). */
public final class Marker {
    private Marker() {
    }

    public static String describe() {
        return "test-classes";
    }
}
