package org.jvmreuse.it.programs;

/**
 * {@code SystemLoaderProbe CLASS...}: what the system class loader holds, as a program sees it:
 * its own class, and whether each named class loads through it.
 */
public final class SystemLoaderProbe {
    public static void main(String[] args) {
        ClassLoader system = ClassLoader.getSystemClassLoader();
        System.out.println("own class from the system class loader: "
                + (SystemLoaderProbe.class.getClassLoader() == system));
        for (String name : args) {
            try {
                Class.forName(name, false, system);
                System.out.println(name + ": loads");
            } catch (ClassNotFoundException e) {
                System.out.println(name + ": not found");
            }
        }
    }
}
