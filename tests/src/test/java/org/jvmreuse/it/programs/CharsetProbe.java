package org.jvmreuse.it.programs;

import java.nio.charset.Charset;

/**
 * {@code CharsetProbe NAME}: whether the charset NAME is there for this program, and where it
 * came from; with {@link ProbeCharsetProvider} on the class path (with its service entry) a new
 * JVM finds {@code x-jvmreuse-probe}, without it none.
 */
public final class CharsetProbe {
    public static void main(String[] args) {
        String name = args[0];
        boolean supported = Charset.isSupported(name);
        System.out.println(name + " supported: " + supported);
        if (supported) {
            System.out.println("from: " + Charset.forName(name).getClass().getName());
        }
    }
}
