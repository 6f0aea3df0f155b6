package org.jvmreuse.pool.slot;

import java.io.File;
import java.util.Enumeration;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * The program a slot runs to warm itself up before it serves: it exercises what real runs do
 * (a fresh loader defining classes from jars, output, the run set-up and clean-up around it), so
 * the JIT-compiled code and JVM metadata of that path exist before the first user run.
 * It is loaded from the pool's jar by a run loader, like any program.
 */
public final class WarmupProgram {
    private WarmupProgram() {
    }

    public static void main(String[] args) throws Exception {
        int loaded = 0;
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (entry.endsWith(".jar")) {
                loaded += loadClassesOf(entry);
            }
        }
        System.out.println("warm-up loaded " + loaded + " classes");
    }

    private static int loadClassesOf(String jarPath) throws Exception {
        int loaded = 0;
        try (JarFile jar = new JarFile(jarPath)) {
            for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements(); ) {
                String name = e.nextElement().getName();
                if (name.endsWith(".class") && !name.contains("-")) {
                    try {
                        Class.forName(name.substring(0, name.length() - 6).replace('/', '.'), false,
                                WarmupProgram.class.getClassLoader());
                        loaded++;
                    } catch (ClassNotFoundException | LinkageError notLoadableHere) {
                        // a class needing what is not on this class path
                    }
                }
            }
        }
        return loaded;
    }
}
