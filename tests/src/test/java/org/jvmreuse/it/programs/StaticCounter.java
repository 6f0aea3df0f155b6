package org.jvmreuse.it.programs;

/** Prints a static counter after incrementing it: 1 in every fresh JVM. */
public final class StaticCounter {
    private static int counter;

    public static void main(String[] args) {
        counter++;
        System.out.println(counter);
    }
}
