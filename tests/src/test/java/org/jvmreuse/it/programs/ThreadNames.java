package org.jvmreuse.it.programs;

import java.util.Timer;
import java.util.TimerTask;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;

/**
 * Prints the names the JDK gives threads a program does not name: a plain thread, an executor's,
 * a new ForkJoinPool's worker, a Timer's; twice each, as the counters behind them advance.
 */
public final class ThreadNames {
    public static void main(String[] args) throws Exception {
        for (int i = 0; i < 2; i++) {
            System.out.println(new Thread(() -> { }).getName());
            ExecutorService executor = Executors.newSingleThreadExecutor();
            System.out.println(executor.submit(() -> Thread.currentThread().getName()).get());
            executor.shutdown();
            ForkJoinPool forkJoin = new ForkJoinPool(1);
            System.out.println(forkJoin.submit(() -> Thread.currentThread().getName()).get());
            forkJoin.shutdown();
            Timer timer = new Timer();
            CompletableFuture<String> name = new CompletableFuture<>();
            timer.schedule(new TimerTask() {
                @Override
                public void run() {
                    name.complete(Thread.currentThread().getName());
                }
            }, 0);
            System.out.println(name.get());
            timer.cancel();
        }
    }
}
