package org.jvmreuse.it.programs;

import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;

/** {@code JarResource JAR ENTRY}: prints the entry of the jar, read through a {@code jar:} URL (whose jar the JDK caches). */
public final class JarResource {
    public static void main(String[] args) throws Exception {
        try (InputStream in = new URL("jar:file:" + args[0] + "!/" + args[1]).openStream()) {
            System.out.println(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }
}
