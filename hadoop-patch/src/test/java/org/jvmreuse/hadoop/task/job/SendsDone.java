package org.jvmreuse.hadoop.task.job;

import java.io.IOException;
import java.net.InetSocketAddress;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.ipc.RPC;

/**
 * Tells the umbilical at {@code args[0]:args[1]} that its attempt is done as Task.sendDone does:
 * up to 10 attempts, each IOException printed and the call tried again; prints each attempt.
 */
public final class SendsDone {
    public static void main(String[] args) throws Exception {
        Configuration conf = new Configuration();
        conf.setInt("ipc.client.connect.max.retries", 2);
        Umbilical umbilical = RPC.getProxy(Umbilical.class, Umbilical.versionID,
                new InetSocketAddress(args[0], Integer.parseInt(args[1])), conf);
        for (int attempt = 1; attempt <= 10; attempt++) {
            System.out.println("attempts=" + attempt);
            try {
                umbilical.done("attempt_1_0001_m_000000_0");
                return;
            } catch (IOException e) {
                System.out.println("failure=" + e);
            }
        }
    }
}
