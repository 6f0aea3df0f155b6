package org.jvmreuse.pool.slot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jvmreuse.boot.RunHook;
import org.jvmreuse.boot.SlotAccess;

/**
 * Runs through the slot's own sequence in this JVM: what a program gets and how it ends, and a
 * shared library's run hooks around it. The programs and the hook are loaded from this module's
 * test classes by the runs' and the shared loaders, as a slot loads a job's and a library's.
 */
class InProcessSlotTest {
    private static final String RUN_HOOKS = "META-INF/services/" + RunHook.class.getName();

    @TempDir
    Path dir;

    @Test
    void aRunHasItsOwnSettingsEndsWithItsExitAndTheSlotServesOn() throws Exception {
        RunOutcome first = InProcessSlot.get().run(InProcessRun.of(Exits.class.getName(), "7").classPath(testClasses())
                .property("seen", "one").env("SEEN", "uno").in(dir));
        assertEquals(7, first.exitCode(), first::toString);
        assertNull(first.slotProblem(), first::toString);
        assertEquals("one", first.printed("property"));
        assertEquals("uno", first.printed("variable"));
        assertEquals(dir.toAbsolutePath().toString(), first.printed("directory"));
        RunOutcome second = InProcessSlot.get().run(InProcessRun.of(Exits.class.getName(), "0").classPath(testClasses())
                .property("seen", "two").env("SEEN", "dos"));
        assertTrue(second.clean(), second::toString);
        assertEquals("two", second.printed("property"));
        assertEquals("dos", second.printed("variable"));
        assertTrue(first.loaderCollectedWithin(20_000), "the first run's class loader is still reachable");
    }

    @Test
    void aSharedLibrarysRunHooksSurroundARunThatEnds() throws Exception {
        Path events = dir.resolve("events");
        RunOutcome outcome = InProcessSlot.get().run(InProcessRun.of(Hooked.class.getName(), "return")
                .shared(hookLibrary()).property("events", events.toString()));
        assertTrue(outcome.clean(), outcome::toString);
        assertEquals(List.of("beforeRun: the run's loader is the context and system loader", "main", "shutdown hook",
                "beforeEnd", "leftover thread ended", "afterRun(exitHooks=true)"), Files.readAllLines(events));
    }

    /**
     * A library's first-use action runs once in each run, before the run's first call of a
     * constructor or static method of the classes it named, from whichever thread, and never
     * between runs (the hook's afterRun calls them too).
     */
    @Test
    void aFirstUseActionRunsOnceInEveryRunBeforeTheFirstCall() throws Exception {
        List<String> library = hookLibrary(FirstUseRecordingHook.class);
        for (String run : List.of("first", "second")) {
            Path events = dir.resolve(run);
            RunOutcome outcome = InProcessSlot.get().run(InProcessRun.of(UsesRegistering.class.getName())
                    .shared(library).property("events", events.toString()));
            assertTrue(outcome.clean(), outcome::toString);
            assertEquals(List.of("main", "first use", "static method", "constructor", "instance method", "static method", "constructor",
                    "thread: static method", "after"), Files.readAllLines(events), run);
        }
    }

    @Test
    void aHaltedRunsShutdownHooksDoNotRun() throws Exception {
        Path events = dir.resolve("events");
        RunOutcome outcome = InProcessSlot.get().run(InProcessRun.of(Hooked.class.getName(), "halt")
                .shared(hookLibrary()).property("events", events.toString()));
        assertEquals(3, outcome.exitCode(), outcome::toString);
        assertNull(outcome.slotProblem(), outcome::toString);
        assertEquals(List.of("beforeRun: the run's loader is the context and system loader", "main", "beforeEnd",
                "leftover thread ended", "afterRun(exitHooks=false)"), Files.readAllLines(events));
    }

    @Test
    void aTermSignalEndsTheRunAfterItsShutdownHooks() throws Exception {
        StartedRun run = InProcessSlot.get().start(InProcessRun.of(Waits.class.getName()).classPath(testClasses()).in(dir));
        Path ready = dir.resolve("ready");
        for (long deadline = System.currentTimeMillis() + 10_000; !Files.exists(ready) && System.currentTimeMillis() < deadline; ) {
            Thread.sleep(5);
        }
        run.signal(15);
        RunOutcome outcome = run.await();
        assertEquals(143, outcome.exitCode(), outcome::toString);
        assertNull(outcome.slotProblem(), outcome::toString);
        assertEquals("ran", outcome.printed("hook"));
    }

    private static List<String> testClasses() throws Exception {
        return List.of(Path.of(InProcessSlotTest.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
    }

    /** This module's test classes with a services file naming {@link RecordingHook}, as a library jar lists its hooks. */
    private List<String> hookLibrary() throws Exception {
        return hookLibrary(RecordingHook.class);
    }

    private List<String> hookLibrary(Class<? extends RunHook> hook) throws Exception {
        Path services = dir.resolve("hook-library");
        Files.createDirectories(services.resolve(RUN_HOOKS).getParent());
        Files.writeString(services.resolve(RUN_HOOKS), hook.getName() + "\n");
        return List.of(services.toString(), testClasses().get(0));
    }

    /** Prints its property "seen", variable SEEN and working directory, and exits with its argument. */
    public static final class Exits {
        public static void main(String[] args) {
            System.out.println("property=" + System.getProperty("seen"));
            System.out.println("variable=" + System.getenv("SEEN"));
            System.out.println("directory=" + Path.of("").toAbsolutePath());
            System.exit(Integer.parseInt(args[0]));
        }
    }

    /** Says it is ready (a file in its working directory) and waits until ended; its shutdown hook prints. */
    public static final class Waits {
        public static void main(String[] args) throws Exception {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> System.out.println("hook=ran")));
            Files.createFile(Path.of("ready"));
            Thread.sleep(Long.MAX_VALUE);
        }
    }

    /** Leaves a shutdown hook and a thread that waits to be ended, then returns or halts with 3 ("halt"). */
    public static final class Hooked {
        public static void main(String[] args) {
            Events.add("main");
            Runtime.getRuntime().addShutdownHook(new Thread(() -> Events.add("shutdown hook")));
            Thread leftover = new Thread(() -> {
                try {
                    Thread.sleep(Long.MAX_VALUE);
                } catch (InterruptedException e) {
                    Events.add("leftover thread ended");
                }
            });
            leftover.setDaemon(true);
            leftover.start();
            if (args[0].equals("halt")) {
                Runtime.getRuntime().halt(3);
            }
        }
    }

    /** A library's run hook that records when the slot calls it, in the file the run's property "events" names. */
    public static final class RecordingHook implements RunHook {
        @Override
        public void beforeRun(BiConsumer<String, String> setenv) {
            Events.file = Path.of(System.getProperty("events"));
            ClassLoader context = Thread.currentThread().getContextClassLoader();
            boolean runs = context == ClassLoader.getSystemClassLoader() && context != RecordingHook.class.getClassLoader();
            Events.add("beforeRun: " + (runs ? "the run's loader is the context and system loader" : "another loader"));
        }

        @Override
        public void beforeEnd() {
            Events.add("beforeEnd");
        }

        @Override
        public void afterRun(boolean exitHooks) {
            Events.add("afterRun(exitHooks=" + exitHooks + ")");
        }
    }

    /** Names {@link Registering} for a first-use action, which records "first use"; calls it after each run. */
    public static final class FirstUseRecordingHook implements RunHook {
        @Override
        public void attach(SlotAccess slot) {
            slot.onFirstUse(List.of(Registering.class), () -> Events.add("first use"));
        }

        @Override
        public void beforeRun(BiConsumer<String, String> setenv) {
            Events.file = Path.of(System.getProperty("events"));
        }

        @Override
        public void afterRun(boolean exitHooks) {
            new Registering("after");
        }
    }

    /** A class of the library whose first use in a run has an action. */
    public static final class Registering {
        Registering(String event) {
            Events.add(event);
        }

        static void record(String event) {
            Events.add(event);
        }

        void again(String event) {
            Events.add(event);
        }
    }

    /** Uses {@link Registering}: its static method, constructor and instance method, then from a thread of its own. */
    public static final class UsesRegistering {
        public static void main(String[] args) throws Exception {
            Events.add("main");
            Registering.record("static method");
            new Registering("constructor").again("instance method");
            Registering.record("static method");
            new Registering("constructor");
            Thread other = new Thread(() -> Registering.record("thread: static method"));
            other.start();
            other.join();
        }
    }

    /** Where the hook and the program record what happened (both in the shared loader). */
    static final class Events {
        static volatile Path file;

        static synchronized void add(String event) {
            try {
                Files.writeString(file, event + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
