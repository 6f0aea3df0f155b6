package org.jvmreuse.hadoop.task.job;

import java.util.concurrent.ExecutorService;
import org.apache.hadoop.ipc.Client;

/** Prints the name of the thread that sends the run's RPC parameters (a thread of IPC's shared executor). */
public final class IpcSender {
    public static void main(String[] args) throws Exception {
        ExecutorService senders = (ExecutorService) Statics.get(Client.class, "SEND_PARAMS_EXECUTOR");
        System.out.println("sender=" + senders.submit(() -> Thread.currentThread().getName()).get());
    }
}
