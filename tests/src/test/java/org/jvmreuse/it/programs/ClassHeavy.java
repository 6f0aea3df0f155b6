package org.jvmreuse.it.programs;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.util.Enumeration;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * Loads (without initialising) up to N classes from a jar on its class path, then prints the
 * JVM's loaded-class count, Metaspace and Compressed Class Space use after a full GC: the numbers
 * of the JVM it runs in.
 */
public final class ClassHeavy {
    public static void main(String[] args) throws Exception {
        int limit = Integer.parseInt(args[1]);
        int loaded = 0;
        try (JarFile jar = new JarFile(args[0])) {
            for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements() && loaded < limit; ) {
                String name = e.nextElement().getName();
                if (name.endsWith(".class") && !name.contains("-")) {
                    try {
                        Class.forName(name.substring(0, name.length() - 6).replace('/', '.'), false,
                                ClassHeavy.class.getClassLoader());
                        loaded++;
                    } catch (LinkageError | ClassNotFoundException skipped) {
                        // a class whose dependencies are not on the class path
                    }
                }
            }
        }
        System.gc();
        System.out.println("loaded=" + loaded);
        System.out.println("classes=" + ManagementFactory.getClassLoadingMXBean().getLoadedClassCount());
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getName().equals("Metaspace")) {
                System.out.println("metaspace=" + pool.getUsage().getUsed());
            } else if (pool.getName().equals("Compressed Class Space")) {
                System.out.println("classspace=" + pool.getUsage().getUsed());
            }
        }
    }
}
