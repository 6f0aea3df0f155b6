package org.jvmreuse.it.programs;

import java.util.concurrent.CountDownLatch;

/**
 * Leaves a daemon thread that swallows everything thrown at it, the slot's stop included, and
 * returns: in a new JVM it exits 0 at once; a slot cannot end the thread and retires.
 */
public final class Unstoppable {
    public static void main(String[] args) throws InterruptedException {
        CountDownLatch running = new CountDownLatch(1);
        Thread thread = new Thread(() -> {
            running.countDown();
            while (true) {
                try {
                    while (true) {
                        try {
                            Thread.sleep(10);
                        } catch (Throwable ignored) {
                            // neither interrupts nor asynchronous stops end this thread
                        }
                    }
                } catch (Throwable ignored) {
                    // a stop that lands in the handler above
                }
            }
        }, "unstoppable");
        thread.setDaemon(true);
        thread.start();
        running.await();
        System.out.println("left a thread that will not stop");
    }
}
