package org.jvmreuse.it.sharedlib;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import org.jvmreuse.boot.RunHook;

/** Run hooks of a test shared library: they record their calls, which runs can read back. */
public final class RecordingHooks implements RunHook {
    private static final List<String> CALLS = new ArrayList<>();
    private static int runs;

    @Override
    public void beforeRun(BiConsumer<String, String> setenv) {
        synchronized (RecordingHooks.class) {
            runs++;
            CALLS.add("before" + runs + "(loader=" + (Thread.currentThread().getContextClassLoader() != RecordingHooks.class.getClassLoader()) + ")");
            setenv.accept("SET_BY_HOOK", "run " + runs);
        }
    }

    /** Must come before the run's threads are interrupted: a run's thread notes its interrupt. */
    @Override
    public void beforeEnd() {
        note("end");
    }

    public static void note(String what) {
        note(what, "");
    }

    private static synchronized void note(String what, String detail) {
        CALLS.add(what + runs + detail);
    }

    @Override
    public void afterRun(boolean exitHooks) {
        note("after", "(" + exitHooks + ")");
    }

    public static synchronized String calls() {
        return String.join(" ", CALLS);
    }
}
