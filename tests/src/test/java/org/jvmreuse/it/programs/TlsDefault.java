package org.jvmreuse.it.programs;

import java.security.NoSuchAlgorithmException;
import javax.net.ssl.SSLContext;

/**
 * Makes the JDK's default TLS context and prints whether it could: with a trust store path as
 * argument, after setting {@code javax.net.ssl.trustStore} to it (a file that is no key store
 * makes the JDK's default key and trust managers, and so every later default context, fail).
 */
public final class TlsDefault {
    private TlsDefault() {
    }

    public static void main(String[] args) {
        if (args.length > 0) {
            System.setProperty("javax.net.ssl.trustStore", args[0]);
        }
        try {
            System.out.println("default TLS context: " + SSLContext.getDefault().getProtocol());
        } catch (NoSuchAlgorithmException e) {
            System.out.println("no default TLS context: " + e.getMessage());
        }
    }
}
