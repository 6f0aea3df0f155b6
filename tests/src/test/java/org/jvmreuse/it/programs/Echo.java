package org.jvmreuse.it.programs;

/** Prints its argument to stdout and stderr and exits with argument mod 7 (0 returns normally). */
public final class Echo {
    public static void main(String[] args) {
        int n = Integer.parseInt(args[0]);
        System.out.println("echo " + n);
        System.err.println("err " + n);
        if (n % 7 != 0) {
            System.exit(n % 7);
        }
    }
}
