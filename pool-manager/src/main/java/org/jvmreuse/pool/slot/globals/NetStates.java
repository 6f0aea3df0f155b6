package org.jvmreuse.pool.slot.globals;

/**
 * The JDK defaults of java.net, javax.net.ssl, java.security, JNDI and RMI that live in plain
 * static fields (field names checked on Java 17 and 25).
 */
final class NetStates {
    private NetStates() {
    }

    static StaticFields defaults() {
        return new StaticFields("java.net defaults (Authenticator, ProxySelector, CookieHandler, ResponseCache, "
                + "URLConnection file name map and default flags, HttpURLConnection.setFollowRedirects)")
                .field("java.net.Authenticator", "theAuthenticator")
                .field("java.net.ProxySelector", "theProxySelector")
                .field("java.net.CookieHandler", "cookieHandler")
                .field("java.net.ResponseCache", "theResponseCache")
                .field("java.net.URLConnection", "fileNameMap")
                .field("java.net.URLConnection", "defaultUseCaches")
                .field("java.net.URLConnection", "defaultAllowUserInteraction")
                .field("java.net.HttpURLConnection", "followRedirects");
    }

    /** Set-once factories: putting the field back lets the next run set them again. */
    static StaticFields socketFactories() {
        return new StaticFields("socket implementation factories (Socket, ServerSocket, DatagramSocket, RMISocketFactory)")
                .field("java.net.Socket", "factory")
                .field("java.net.ServerSocket", "factory")
                .field("java.net.DatagramSocket", "factory")
                .field("java.rmi.server.RMISocketFactory", "factory")
                .field("java.rmi.server.RMISocketFactory", "handler");
    }

    /**
     * Put back even when the run only made the JDK build its lazy default, so the next run builds
     * its own (with the key and trust managers the JDK made once: a run that changed their
     * javax.net.ssl.* properties retires its slot, RunProperties).
     */
    static StaticFields tls() {
        return new StaticFields("TLS defaults (SSLContext.setDefault, HttpsURLConnection default factory and verifier)")
                .field("javax.net.ssl.SSLContext", "defaultContext")
                .field("javax.net.ssl.HttpsURLConnection", "defaultSSLSocketFactory")
                .field("javax.net.ssl.HttpsURLConnection", "defaultHostnameVerifier");
    }

    /** Both builders are set-once; Java 21+ keeps the object factory builder in a helper class. */
    static StaticFields naming() {
        StaticFields builders = new StaticFields("JNDI builders (NamingManager initial context and object factory builders)")
                .field("javax.naming.spi.NamingManager", "initctx_factory_builder");
        try {
            Class.forName("com.sun.naming.internal.NamingManagerHelper");
            return builders.field("com.sun.naming.internal.NamingManagerHelper", "object_factory_builder");
        } catch (ClassNotFoundException e) {
            return builders.field("javax.naming.spi.NamingManager", "object_factory_builder");
        }
    }

    /**
     * The provider list ({@code Security.addProvider}, {@code insertProviderAt},
     * {@code removeProvider} each install a new immutable list), the JAAS login
     * {@code Configuration}, and, up to Java 23, {@code Policy.setPolicy}.
     */
    static StaticFields securityObjects() {
        StaticFields fields = new StaticFields("security providers, login Configuration, Policy")
                .field("sun.security.jca.Providers", "providerList")
                .field("javax.security.auth.login.Configuration", "configuration");
        // from Java 24 Policy.setPolicy only throws (and the field is gone)
        return Runtime.version().feature() >= 24 ? fields : fields.field("java.security.Policy", "policyInfo");
    }
}
