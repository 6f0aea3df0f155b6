package org.jvmreuse.it.programs;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;

/**
 * {@code Leftover PLACE}: leaves a daemon thread running in PLACE ({@code system}: the system thread
 * group; {@code unmarked}: the same, not inheriting the starter's inheritable thread-locals;
 * {@code common}: a common-pool task; {@code executor}: an executor whose threads live in a
 * thread group of their own under the system group; {@code virtual}: a virtual thread;
 * {@code virtual-unmarked}: one not inheriting thread-locals) and returns. (The pool's own thread
 * factory, whose class a run can name through its thread group's, refuses run code: IsolationTest.)
 * The thread ignores interrupts, prints "leftover PLACE sees RUN_MARK=..." every 20 ms, and after
 * 500 ms calls System.exit(0). {@code Leftover victim}: sleeps 1 s and exits with 3.
 */
public final class Leftover {
    public static void main(String[] args) throws Exception {
        if (args[0].equals("victim")) {
            Thread.sleep(1000);
            System.out.println("victim done");
            System.exit(3);
        }
        CountDownLatch running = new CountDownLatch(1);
        Runnable body = () -> linger(args[0], running);
        ThreadGroup system = Thread.currentThread().getThreadGroup();
        while (system.getParent() != null) {
            system = system.getParent();
        }
        switch (args[0]) {
            case "system" -> daemon(new Thread(system, body, "leftover")).start();
            case "unmarked" -> daemon(new Thread(system, body, "leftover", 0, false)).start();
            case "common" -> ForkJoinPool.commonPool().execute(body);
            case "executor" -> {
                ThreadGroup own = new ThreadGroup(system, "library-workers");
                Executors.newFixedThreadPool(1, r -> daemon(new Thread(own, r, "library-worker"))).execute(body);
            }
            case "virtual" -> Thread.class.getMethod("startVirtualThread", Runnable.class).invoke(null, body);
            case "virtual-unmarked" -> { // Thread.ofVirtual().inheritInheritableThreadLocals(false).start(body), JDK 21+
                Class<?> builder = Class.forName("java.lang.Thread$Builder");
                Object virtual = Thread.class.getMethod("ofVirtual").invoke(null);
                virtual = builder.getMethod("inheritInheritableThreadLocals", boolean.class).invoke(virtual, false);
                builder.getMethod("start", Runnable.class).invoke(virtual, body);
            }
            default -> throw new IllegalArgumentException(args[0]);
        }
        running.await();
        System.out.println("left a thread in " + args[0]);
    }

    private static Thread daemon(Thread t) {
        t.setDaemon(true);
        return t;
    }

    private static void linger(String place, CountDownLatch running) {
        long start = System.nanoTime();
        running.countDown();
        while (true) {
            System.out.println("leftover " + place + " sees RUN_MARK=" + System.getenv("RUN_MARK"));
            if (System.nanoTime() - start > 500_000_000L) {
                System.exit(0);
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                // a leftover that will not take a hint
            }
        }
    }
}
