package org.jvmreuse.hadoop.task.job;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.ipc.ClientCache;
import org.apache.hadoop.ipc.ProtobufRpcEngine;
import org.apache.hadoop.net.NetUtils;

/**
 * Prints the static resolution of "job-host" and then sets one; takes an RPC client from the
 * protobuf engine's cache, prints which (its identity) and leaves it unstopped, as a task that
 * exits does.
 */
public final class IpcClientUse {
    public static void main(String[] args) throws Exception {
        System.out.println("resolution=" + NetUtils.getStaticResolution("job-host"));
        NetUtils.addStaticResolution("job-host", "localhost");
        ClientCache clients = (ClientCache) Statics.get(ProtobufRpcEngine.class, "CLIENTS");
        System.out.println("client=" + System.identityHashCode(clients.getClient(new Configuration())));
    }
}
