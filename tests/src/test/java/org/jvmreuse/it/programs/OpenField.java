package org.jvmreuse.it.programs;

/**
 * {@code OpenField CLASS FIELD...}: makes private fields of a JDK class accessible, which only
 * works where the JVM opens the class's package to this code (--add-opens ...=ALL-UNNAMED);
 * elsewhere it fails with InaccessibleObjectException (exit 1).
 */
public final class OpenField {
    public static void main(String[] args) throws Exception {
        Class<?> jdkClass = Class.forName(args[0]);
        for (int i = 1; i < args.length; i++) {
            jdkClass.getDeclaredField(args[i]).setAccessible(true);
            System.out.println("opened " + jdkClass.getName() + "." + args[i]);
        }
    }
}
