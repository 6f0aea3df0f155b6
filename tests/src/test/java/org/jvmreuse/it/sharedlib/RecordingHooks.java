package org.jvmreuse.it.sharedlib;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;

/** Run hooks of a test shared library: they record their calls, which runs can read back. */
public final class RecordingHooks {
    private static final List<String> CALLS = new ArrayList<>();
    private static int runs;

    private RecordingHooks() {
    }

    public static synchronized void beforeRun(BiConsumer<String, String> setenv) {
        runs++;
        CALLS.add("before" + runs + "(loader=" + (Thread.currentThread().getContextClassLoader() != RecordingHooks.class.getClassLoader()) + ")");
        setenv.accept("SET_BY_HOOK", "run " + runs);
    }

    /** Must come before the run's threads are interrupted: a run's thread notes its interrupt. */
    public static synchronized void beforeEnd() {
        CALLS.add("end" + runs);
    }

    public static synchronized void note(String what) {
        CALLS.add(what + runs);
    }

    public static synchronized void afterRun(boolean exitHooks) {
        CALLS.add("after" + runs + "(" + exitHooks + ")");
    }

    public static synchronized String calls() {
        return String.join(" ", CALLS);
    }
}
