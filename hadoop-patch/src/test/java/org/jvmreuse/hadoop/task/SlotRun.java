package org.jvmreuse.hadoop.task;

import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.jvmreuse.boot.RunHook;

/**
 * What a slot does around one run, for the hooks' sake: beforeRun with the run's loader as
 * context loader, the program on a thread of its own until no non-daemon thread of the run is
 * left (or until the run is ended, as by a signal), then the JVM shutdown hooks registered during
 * the run (run only if {@code exitHooks}, as after a normal end; dropped as after halt), then
 * beforeEnd, then the run's remaining threads are ended (and JDK threads it started no longer
 * hold its loader), then afterRun.
 */
final class SlotRun {
    private static final String LOG4J_CONFIGURATION = "log4j.configuration";
    private static Path quietLog4j;

    /** The environment changes beforeRun made. */
    final Map<String, String> env = new HashMap<>();
    private final ClassLoader loader;
    private final RunHook hook;

    SlotRun(ClassLoader loader) {
        this(loader, new HadoopTaskReset());
    }

    /** A run around which {@code hook} is called (HadoopTaskReset as some shared loader has it). */
    SlotRun(ClassLoader loader, RunHook hook) {
        this.loader = loader;
        this.hook = hook;
    }

    /** Runs {@code program} as a run and returns its result; {@code exitHooks} as the slot passes it. */
    <T> T run(boolean exitHooks, Callable<? extends T> program) throws Exception {
        return run(Map.of(), exitHooks, program);
    }

    /** The same with {@code vars} in the run's environment. */
    <T> T run(Map<String, String> vars, boolean exitHooks, Callable<? extends T> program) throws Exception {
        return ProcessEnv.with(vars, () -> runHere(exitHooks, new CountDownLatch(1), program));
    }

    /** A run that {@code end} ends (with its shutdown hooks) unless its program is over first. */
    <T> T runUntil(CountDownLatch end, Callable<? extends T> program) throws Exception {
        return ProcessEnv.with(Map.of(), () -> runHere(true, end, program));
    }

    private <T> T runHere(boolean exitHooks, CountDownLatch end, Callable<? extends T> program) throws Exception {
        Thread self = Thread.currentThread();
        ClassLoader previous = self.getContextClassLoader();
        List<Thread> hooksBefore = jvmHooks();
        boolean quiet = System.getProperty(LOG4J_CONFIGURATION) == null;
        if (quiet) {
            // runs that do not test logging log nothing (and log4j does not warn of no appenders)
            System.setProperty(LOG4J_CONFIGURATION, quietLog4j().toUri().toString());
        }
        self.setContextClassLoader(loader);
        try {
            hook.beforeRun((name, value) -> {
                env.put(name, value);
                ProcessEnv.set(name, value);
            });
            AtomicReference<T> result = new AtomicReference<>();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            ThreadGroup group = new ThreadGroup("run");
            Thread main = new Thread(group, () -> {
                try {
                    result.set(program.call());
                } catch (Throwable e) {
                    failure.set(e);
                }
            }, "main");
            main.setContextClassLoader(loader);
            main.start();
            awaitEnd(group, end);
            finishJvmHooks(hooksBefore, exitHooks);
            hook.beforeEnd();
            endThreads(group);
            releaseJdkThreads(loader);
            hook.afterRun(exitHooks);
            if (failure.get() instanceof Exception e) {
                throw e;
            } else if (failure.get() != null) {
                throw new AssertionError(failure.get());
            }
            return result.get();
        } finally {
            self.setContextClassLoader(previous);
            if (quiet) {
                System.clearProperty(LOG4J_CONFIGURATION);
            }
        }
    }

    private static synchronized Path quietLog4j() throws IOException {
        if (quietLog4j == null) {
            quietLog4j = Files.createTempFile("log4j-off", ".properties");
            quietLog4j.toFile().deleteOnExit();
            Files.writeString(quietLog4j, "log4j.rootLogger=OFF\n");
        }
        return quietLog4j;
    }

    /** The run ends when none of its non-daemon threads is left, as a JVM's program does, or when ended. */
    private static void awaitEnd(ThreadGroup group, CountDownLatch end) throws InterruptedException {
        for (Thread t; (t = liveNonDaemon(group)) != null && end.getCount() > 0; ) {
            t.join(10);
        }
    }

    /**
     * A slot interrupts what is left, then stops it; interrupting suffices for the threads of
     * Hadoop's tests here. All are interrupted first, as the slot does (and as lets a thread see
     * another one's end).
     */
    private static void endThreads(ThreadGroup group) throws InterruptedException {
        Thread[] threads = new Thread[group.activeCount() + 8];
        int n = group.enumerate(threads, true);
        for (int i = 0; i < n; i++) {
            threads[i].interrupt();
        }
        for (int i = 0; i < n; i++) {
            threads[i].join(1_000);
        }
    }

    /**
     * JDK threads outside the run's group that a run's thread created inherit its context loader
     * and outlive the run: the "process reaper" threads of Process (Hadoop's Shell starts
     * processes), idle in a cached pool for 60 s and reused meanwhile. The slot has to do the same.
     */
    private static void releaseJdkThreads(ClassLoader loader) {
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getContextClassLoader() == loader) {
                t.setContextClassLoader(ClassLoader.getSystemClassLoader());
            }
        }
    }

    private static Thread liveNonDaemon(ThreadGroup group) {
        Thread[] threads = new Thread[group.activeCount() + 8];
        int n = group.enumerate(threads, true);
        for (int i = 0; i < n; i++) {
            if (!threads[i].isDaemon() && threads[i].isAlive()) {
                return threads[i];
            }
        }
        return null;
    }

    private static void finishJvmHooks(List<Thread> before, boolean run) throws InterruptedException {
        List<Thread> added = jvmHooks();
        added.removeAll(before);
        for (Thread hook : added) {
            Runtime.getRuntime().removeShutdownHook(hook);
            if (run) {
                hook.start();
                hook.join();
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static List<Thread> jvmHooks() {
        try {
            Class<?> hooks = Class.forName("java.lang.ApplicationShutdownHooks");
            Field f = hooks.getDeclaredField("hooks");
            f.setAccessible(true);
            synchronized (hooks) {
                return new ArrayList<>(((IdentityHashMap<Thread, Thread>) f.get(null)).keySet());
            }
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }
}
