package org.jvmreuse.hadoop.task.job;

/** Prints the environment variable {@code args[0]}. */
public final class Getenv {
    public static void main(String[] args) {
        System.out.println("value=" + System.getenv(args[0]));
    }
}
