package org.jvmreuse.pool.slot;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.channels.AsynchronousSocketChannel;
import java.nio.channels.spi.SelectorProvider;
import java.nio.charset.Charset;
import java.nio.file.spi.FileSystemProvider;
import java.time.zone.ZoneRulesProvider;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jvmreuse.pool.jdk.LiveThreads;

/**
 * JDK-wide services that start their threads on first use: CompletableFuture's delay scheduler
 * (orTimeout, completeOnTimeout, delayedExecutor; a thread of its own up to Java 24, the common
 * pool's DelayScheduler after) and the default AsynchronousChannelGroup. Started by a run, their
 * threads would be the run's and be ended with it, leaving the JDK's object with a dead thread
 * that nothing replaces: every later run's timeouts would never fire. So the slot starts them
 * itself, once, from a thread of the system group: their threads are the JDK's, as in a new JVM,
 * and no clean-up touches them.
 * <p>
 * Also JDK singletons that look their providers up through the system class loader once, on
 * first use, and keep what they found (and the loader): the security providers named in
 * {@code java.security}, file system, selector and charset providers, time-zone rules, and from
 * Java 18 the host name resolver ({@code InetAddressResolverProvider}). During a
 * run the system class loader is the run's (SystemLoaderSwitch), so the first run to use one
 * would pin its loader and hand its providers to every later run; made at slot start, they hold
 * the slot's, as before any run.
 */
final class JdkServices {
    private JdkServices() {
    }

    static void start() throws InterruptedException {
        ThreadGroup system = LiveThreads.root(Thread.currentThread().getThreadGroup());
        RuntimeException[] failure = new RuntimeException[1];
        Thread starter = new Thread(system, () -> {
            try {
                startAll();
            } catch (RuntimeException e) {
                failure[0] = e;
            }
        }, "jvmreuse-jdk-services", 0, false);
        starter.start();
        starter.join();
        if (failure[0] != null) {
            throw failure[0];
        }
    }

    private static void startAll() {
        try {
            new CompletableFuture<Void>().orTimeout(1, TimeUnit.MILLISECONDS).join();
        } catch (CompletionException e) {
            if (!(e.getCause() instanceof TimeoutException)) {
                throw e;
            }
        }
        CompletableFuture.runAsync(() -> { }, CompletableFuture.delayedExecutor(1, TimeUnit.MILLISECONDS)).join();
        try {
            AsynchronousSocketChannel.open().close(); // makes the default group, with its threads
        } catch (IOException e) {
            throw new IllegalStateException("cannot start the default AsynchronousChannelGroup", e);
        }
        try {
            Class.forName("sun.security.jca.ProviderConfig$ProviderLoader", true, null);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("cannot set up the JDK's security provider loader", e);
        }
        FileSystemProvider.installedProviders();
        try {
            SelectorProvider.provider().openSelector().close();
        } catch (IOException e) {
            throw new IllegalStateException("cannot open a selector", e);
        }
        Charset.isSupported("x-jvmreuse-none"); // the extended providers' holder, without making every JDK charset
        ZoneRulesProvider.getAvailableZoneIds();
        try {
            InetAddress.getByName("localhost"); // the resolver, looked up through the context loader
        } catch (UnknownHostException e) {
            // the resolver is made all the same; a host without localhost is not the slot's problem
        }
    }
}
