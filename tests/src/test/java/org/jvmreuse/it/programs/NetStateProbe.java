package org.jvmreuse.it.programs;

import java.beans.Beans;
import java.beans.Introspector;
import java.beans.PropertyEditorManager;
import java.beans.PropertyEditorSupport;
import java.io.ObjectInputFilter;
import java.net.Authenticator;
import java.net.ContentHandler;
import java.net.CookieHandler;
import java.net.CookieManager;
import java.net.DatagramSocket;
import java.net.HttpURLConnection;
import java.net.Proxy;
import java.net.ProxySelector;
import java.net.ResponseCache;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.URI;
import java.net.URL;
import java.net.URLConnection;
import java.net.URLStreamHandler;
import java.nio.file.Files;
import java.nio.file.Path;
import java.rmi.server.RMISocketFactory;
import java.security.Policy;
import java.security.Provider;
import java.security.Security;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import javax.naming.spi.NamingManager;
import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.SSLContext;

/**
 * The java.net / security / JNDI / beans registries a new JVM starts with. "probe" prints each as
 * a program sees it (set-once setters are tried: "settable" or the JDK's refusal); "change"
 * changes every one, with objects of this program's classes; "register" does the same quietly
 * (fast, for many-run tests: a registry the slot does not put back pins the run's loader).
 */
public final class NetStateProbe {
    public static void main(String[] args) throws Exception {
        switch (args.length == 0 ? "probe" : args[0]) {
            case "probe" -> probe();
            case "change" -> {
                change();
                System.out.println("changed");
            }
            case "register" -> register();
            default -> throw new IllegalArgumentException("mode: probe, change or register, not " + args[0]);
        }
    }

    private static void probe() throws Exception {
        Path text = Files.createTempFile("netprobe", ".txt");
        try {
            print("url.file", new URL(text.toUri().toString()).openConnection().getClass().getName());
            print("url.probe", attempt(() -> new URL("netprobe:x").toString()));
            print("content.text", attempt(() -> text.toUri().toURL().openConnection().getContent().getClass().getName()));
        } finally {
            Files.delete(text);
        }
        print("filenamemap", URLConnection.getFileNameMap().getContentTypeFor("a.txt"));
        print("usecaches.jar", URLConnection.getDefaultUseCaches("jar"));
        print("usecaches", new URL("file:/").openConnection().getDefaultUseCaches());
        print("userinteraction", URLConnection.getDefaultAllowUserInteraction());
        print("followredirects", HttpURLConnection.getFollowRedirects());
        print("authenticator", Authenticator.getDefault());
        print("proxyselector", className(ProxySelector.getDefault()));
        print("cookiehandler", CookieHandler.getDefault());
        print("responsecache", ResponseCache.getDefault());
        print("sslcontext", SSLContext.getDefault().getProtocol());
        print("https.verifier", className(HttpsURLConnection.getDefaultHostnameVerifier()));
        print("https.factory", className(HttpsURLConnection.getDefaultSSLSocketFactory()));
        print("providers", Arrays.stream(Security.getProviders()).map(Provider::getName).collect(Collectors.joining(",")));
        print("security.probe", Security.getProperty("netprobe.property"));
        print("security.keystore.type", Security.getProperty("keystore.type"));
        print("policy", attempt(() -> className(Policy.getPolicy())));
        print("securitymanager", System.getSecurityManager());
        print("serialfilter", ObjectInputFilter.Config.getSerialFilter());
        print("naming.initctx", NamingManager.hasInitialContextFactoryBuilder());
        print("beans.editor", className(PropertyEditorManager.findEditor(String.class)));
        print("beans.editorpath", String.join(",", PropertyEditorManager.getEditorSearchPath()));
        print("beans.infopath", String.join(",", Introspector.getBeanInfoSearchPath()));
        print("beans.designtime", Beans.isDesignTime());
        print("rmi.failurehandler", RMISocketFactory.getFailureHandler());
        // Set-once setters last: trying one sets it (the slot puts it back after this run too).
        print("set.urlfactory", tryToSet(() -> URL.setURLStreamHandlerFactory(p -> null)));
        print("set.contentfactory", tryToSet(() -> URLConnection.setContentHandlerFactory(t -> null)));
        print("set.socketfactory", tryToSet(() -> Socket.setSocketImplFactory(() -> null)));
        print("set.serversocketfactory", tryToSet(() -> ServerSocket.setSocketFactory(() -> null)));
        print("set.datagramfactory", tryToSet(() -> DatagramSocket.setDatagramSocketImplFactory(() -> null)));
        print("set.rmifactory", tryToSet(() -> RMISocketFactory.setSocketFactory(new RunRmiFactory())));
        print("set.serialfilter", tryToSet(() -> ObjectInputFilter.Config.setSerialFilter(info -> ObjectInputFilter.Status.UNDECIDED)));
        print("set.serialfilterfactory", tryToSet(() -> ObjectInputFilter.Config.setSerialFilterFactory((a, b) -> b)));
        print("set.initctxbuilder", tryToSet(() -> NamingManager.setInitialContextFactoryBuilder(env -> null)));
        print("set.objectbuilder", tryToSet(() -> NamingManager.setObjectFactoryBuilder((o, env) -> null)));
    }

    @SuppressWarnings({"deprecation", "removal"})
    /** The {@code register} mode, for other probes' many-run tests. */
    public static void register() {
        try {
            change();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static void change() throws Exception {
        URL.setURLStreamHandlerFactory(new RunHandlers());
        new URL("netprobe:x");
        Path text = Files.createTempFile("netprobe", ".txt");
        try {
            new URL(text.toUri().toString()).openConnection(); // caches the run's file handler
            URLConnection.setContentHandlerFactory(type -> new RunContent());
            text.toUri().toURL().openConnection().getContent(); // caches the run's text/plain handler
        } finally {
            Files.delete(text);
        }
        URLConnection.setFileNameMap(name -> "netprobe/changed");
        URLConnection.setDefaultUseCaches("jar", false);
        new URL("file:/").openConnection().setDefaultUseCaches(false);
        URLConnection.setDefaultAllowUserInteraction(true);
        HttpURLConnection.setFollowRedirects(false);
        Authenticator.setDefault(new RunAuthenticator());
        ProxySelector.setDefault(new RunProxySelector());
        CookieHandler.setDefault(new RunCookies());
        ResponseCache.setDefault(new RunResponseCache());
        SSLContext.setDefault(new RunSslContext());
        HttpsURLConnection.setDefaultHostnameVerifier((host, session) -> true);
        HttpsURLConnection.setDefaultSSLSocketFactory(new RunSslSocketFactory());
        Security.insertProviderAt(new RunProvider(), 1);
        Security.setProperty("netprobe.property", "changed");
        Security.setProperty("keystore.type", "jks");
        tryToSet(() -> Policy.setPolicy(new RunPolicy()));
        Socket.setSocketImplFactory(() -> null);
        ServerSocket.setSocketFactory(() -> null);
        DatagramSocket.setDatagramSocketImplFactory(() -> null);
        RMISocketFactory.setSocketFactory(new RunRmiFactory());
        RMISocketFactory.setFailureHandler(e -> false);
        ObjectInputFilter.Config.setSerialFilter(new RunFilter());
        ObjectInputFilter.Config.setSerialFilterFactory((a, b) -> b);
        NamingManager.setInitialContextFactoryBuilder(env -> null);
        NamingManager.setObjectFactoryBuilder((o, env) -> null);
        PropertyEditorManager.registerEditor(String.class, RunEditor.class);
        PropertyEditorManager.setEditorSearchPath(new String[] {"org.jvmreuse.it.programs"});
        Introspector.setBeanInfoSearchPath(new String[] {"org.jvmreuse.it.programs"});
        Beans.setDesignTime(true);
        if (Runtime.version().feature() < 24) {
            System.setSecurityManager(new RunSecurityManager());
        }
    }

    private static void print(String key, Object value) {
        System.out.println(key + "=" + value);
    }

    private static String className(Object o) {
        return o == null ? "null" : o.getClass().getName();
    }

    private interface Action {
        Object run() throws Exception;
    }

    private interface VoidAction {
        void run() throws Exception;
    }

    private static String attempt(Action action) {
        try {
            return String.valueOf(action.run());
        } catch (Exception | Error e) {
            return e.getClass().getName() + ": " + e.getMessage();
        }
    }

    private static String tryToSet(VoidAction action) {
        return attempt(() -> {
            action.run();
            return "settable";
        });
    }

    static final class RunHandlers implements java.net.URLStreamHandlerFactory {
        @Override
        public URLStreamHandler createURLStreamHandler(String protocol) {
            return protocol.equals("netprobe") || protocol.equals("file") ? new RunHandler() : null;
        }
    }

    static final class RunHandler extends URLStreamHandler {
        @Override
        protected URLConnection openConnection(URL u) {
            return new URLConnection(u) {
                @Override
                public void connect() {
                }
            };
        }
    }

    static final class RunContent extends ContentHandler {
        @Override
        public Object getContent(URLConnection connection) {
            return this;
        }
    }

    static final class RunAuthenticator extends Authenticator {
    }

    static final class RunProxySelector extends ProxySelector {
        @Override
        public List<Proxy> select(URI uri) {
            return List.of(Proxy.NO_PROXY);
        }

        @Override
        public void connectFailed(URI uri, SocketAddress sa, java.io.IOException e) {
        }
    }

    static final class RunCookies extends CookieManager {
    }

    static final class RunResponseCache extends ResponseCache {
        @Override
        public java.net.CacheResponse get(URI uri, String method, java.util.Map<String, List<String>> headers) {
            return null;
        }

        @Override
        public java.net.CacheRequest put(URI uri, URLConnection conn) {
            return null;
        }
    }

    static final class RunSslContext extends SSLContext {
        RunSslContext() {
            super(null, new RunProvider(), "netprobe");
        }
    }

    static final class RunSslSocketFactory extends javax.net.ssl.SSLSocketFactory {
        @Override
        public String[] getDefaultCipherSuites() {
            return new String[0];
        }

        @Override
        public String[] getSupportedCipherSuites() {
            return new String[0];
        }

        @Override
        public Socket createSocket(Socket s, String host, int port, boolean autoClose) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Socket createSocket(String host, int port) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Socket createSocket(String host, int port, java.net.InetAddress local, int localPort) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Socket createSocket(java.net.InetAddress host, int port) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Socket createSocket(java.net.InetAddress a, int port, java.net.InetAddress local, int localPort) {
            throw new UnsupportedOperationException();
        }
    }

    static final class RunProvider extends Provider {
        RunProvider() {
            super("NetProbe", "1.0", "a provider of the probe's own class loader");
        }
    }

    @SuppressWarnings("removal")
    static final class RunPolicy extends Policy {
    }

    static final class RunRmiFactory extends RMISocketFactory {
        @Override
        public Socket createSocket(String host, int port) throws java.io.IOException {
            return new Socket(host, port);
        }

        @Override
        public ServerSocket createServerSocket(int port) throws java.io.IOException {
            return new ServerSocket(port);
        }
    }

    static final class RunFilter implements ObjectInputFilter {
        @Override
        public Status checkInput(FilterInfo info) {
            return Status.UNDECIDED;
        }
    }

    public static final class RunEditor extends PropertyEditorSupport {
    }

    @SuppressWarnings("removal")
    static final class RunSecurityManager extends SecurityManager {
        @Override
        public void checkPermission(java.security.Permission perm) {
        }

        @Override
        public void checkPermission(java.security.Permission perm, Object context) {
        }
    }
}
