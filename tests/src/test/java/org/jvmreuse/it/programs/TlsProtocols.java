package org.jvmreuse.it.programs;

import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import javax.net.ssl.SSLContext;

/**
 * Prints the TLS protocols a client of the JDK's default TLS context offers, which the JDK takes
 * once per JVM from {@code jdk.tls.client.protocols} as it is at their first use: with protocols
 * as argument, after setting that property to them in code.
 */
public final class TlsProtocols {
    private TlsProtocols() {
    }

    public static void main(String[] args) throws NoSuchAlgorithmException {
        if (args.length > 0) {
            System.setProperty("jdk.tls.client.protocols", args[0]);
        }
        System.out.println("client protocols: " + Arrays.toString(SSLContext.getDefault().getDefaultSSLParameters().getProtocols()));
    }
}
