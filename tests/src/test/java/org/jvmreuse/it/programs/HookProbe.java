package org.jvmreuse.it.programs;

import org.jvmreuse.it.sharedlib.RecordingHooks;

/**
 * Prints what the shared library's run hooks did, leaves a daemon thread that notes its interrupt
 * (when the slot ends the run's threads), then ends as args[0] says: return, exit or halt.
 */
public final class HookProbe {
    private HookProbe() {
    }

    public static void main(String[] args) {
        System.out.println("env=" + System.getenv("SET_BY_HOOK"));
        System.out.println("calls=" + RecordingHooks.calls());
        System.out.flush();
        Thread waiter = new Thread(() -> {
            try {
                Thread.sleep(Long.MAX_VALUE);
            } catch (InterruptedException e) {
                RecordingHooks.note("interrupted");
            }
        }, "waiter");
        waiter.setDaemon(true);
        waiter.start();
        switch (args[0]) {
            case "exit" -> System.exit(0);
            case "halt" -> Runtime.getRuntime().halt(0);
            default -> { }
        }
    }
}
