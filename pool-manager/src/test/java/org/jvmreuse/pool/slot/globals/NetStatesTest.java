package org.jvmreuse.pool.slot.globals;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.beans.PropertyEditorManager;
import java.beans.PropertyEditorSupport;
import java.io.ObjectInputFilter;
import java.net.Authenticator;
import java.net.HttpURLConnection;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLConnection;
import java.net.URLStreamHandler;
import java.security.Provider;
import java.security.Security;
import java.util.Arrays;
import java.util.List;
import javax.naming.spi.NamingManager;
import org.junit.jupiter.api.Test;

/** Each state of java.net, security, JNDI and java.beans, changed in-process and put back. */
class NetStatesTest {
    private final GlobalStateGuard guard = GlobalStateGuard.forThisJvm();

    private void changedAndPutBack(Runnable change) {
        GlobalStateGuard.Captured captured = guard.capture();
        change.run();
        assertEquals(List.of(), captured.restore(null));
    }

    @Test
    void theUrlStreamHandlerFactoryCanBeSetAgainAndItsHandlersAreForgotten() throws Exception {
        for (int i = 0; i < 2; i++) {
            changedAndPutBack(() -> {
                URL.setURLStreamHandlerFactory(p -> p.equals("unittest") ? new Handler() : null);
                assertDoesNotThrow(() -> new URL("unittest:x"));
            });
            assertThrows(MalformedURLException.class, () -> new URL("unittest:x"));
        }
        assertEquals("file", new URL("file:/tmp").getProtocol()); // the JDK's own handlers still work
    }

    @Test
    void theContentHandlerFactoryCanBeSetAgain() {
        for (int i = 0; i < 2; i++) {
            changedAndPutBack(() -> URLConnection.setContentHandlerFactory(type -> null));
        }
    }

    @Test
    void defaultsGoBack() {
        changedAndPutBack(() -> {
            Authenticator.setDefault(new Authenticator() { });
            HttpURLConnection.setFollowRedirects(false);
            URLConnection.setDefaultAllowUserInteraction(true);
            URLConnection.setDefaultUseCaches("jar", false);
        });
        assertNull(Authenticator.getDefault());
        assertTrue(HttpURLConnection.getFollowRedirects());
        assertTrue(!URLConnection.getDefaultAllowUserInteraction());
        assertTrue(URLConnection.getDefaultUseCaches("jar"));
    }

    @Test
    void securityProvidersAndPropertiesGoBack() {
        String providers = Arrays.toString(Security.getProviders());
        String keystore = Security.getProperty("keystore.type");
        changedAndPutBack(() -> {
            Security.insertProviderAt(new Provider("UnitTest", "1", "test") { }, 1);
            Security.removeProvider("SunJCE");
            Security.setProperty("keystore.type", "jks");
            Security.setProperty("unittest.new", "x");
        });
        assertEquals(providers, Arrays.toString(Security.getProviders()));
        assertEquals(keystore, Security.getProperty("keystore.type"));
        assertNull(Security.getProperty("unittest.new"));
    }

    @Test
    void setOnceFiltersAndBuildersCanBeSetAgain() {
        for (int i = 0; i < 2; i++) {
            changedAndPutBack(() -> assertDoesNotThrow(() -> {
                ObjectInputFilter.Config.setSerialFilter(info -> ObjectInputFilter.Status.UNDECIDED);
                ObjectInputFilter.Config.setSerialFilterFactory((a, b) -> b);
                NamingManager.setInitialContextFactoryBuilder(env -> null);
                NamingManager.setObjectFactoryBuilder((o, env) -> null);
            }));
            assertNull(ObjectInputFilter.Config.getSerialFilter());
            assertTrue(!NamingManager.hasInitialContextFactoryBuilder());
        }
    }

    @Test
    void propertyEditorsGoBack() {
        String path = Arrays.toString(PropertyEditorManager.getEditorSearchPath());
        changedAndPutBack(() -> {
            PropertyEditorManager.registerEditor(String.class, Editor.class);
            PropertyEditorManager.setEditorSearchPath(new String[] {"nowhere"});
        });
        assertEquals("com.sun.beans.editors.StringEditor", PropertyEditorManager.findEditor(String.class).getClass().getName());
        assertEquals(path, Arrays.toString(PropertyEditorManager.getEditorSearchPath()));
    }

    /** Prints what capture and restore of these states cost per run (no change made). */
    @Test
    void captureAndRestoreAreCheap() {
        long[] nanos = new long[20_000];
        for (int i = 0; i < nanos.length; i++) {
            long t0 = System.nanoTime();
            guard.capture().restore(null);
            nanos[i] = System.nanoTime() - t0;
        }
        Arrays.sort(nanos, nanos.length / 2, nanos.length); // the second half, warm
        long median = nanos[nanos.length * 3 / 4];
        long p95 = nanos[nanos.length / 2 + (int) (nanos.length / 2 * 0.95)];
        System.out.println("net/security/naming/beans states: capture+restore median " + median / 1000.0
                + " us, p95 " + p95 / 1000.0 + " us");
        assertTrue(median < 200_000, "capture+restore took " + median + " ns");
    }

    static final class Handler extends URLStreamHandler {
        @Override
        protected URLConnection openConnection(URL u) {
            throw new UnsupportedOperationException();
        }
    }

    public static final class Editor extends PropertyEditorSupport {
    }
}
