package org.jvmreuse.workloads;

/** The smallest program: what a JVM start costs when there is nothing else to do. */
public final class Hello {
    public static void main(String[] args) {
        System.out.println("Hello from " + (args.length > 0 ? args[0] : "a JVM"));
    }
}
