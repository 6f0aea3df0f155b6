package org.jvmreuse.it.programs;

/** Prints its index and the time main started, then sleeps, to make several runs queue up. */
public final class Ordered {
    public static void main(String[] args) throws Exception {
        System.out.println(args[0] + " " + System.nanoTime());
        Thread.sleep(Long.parseLong(args[1]));
    }
}
