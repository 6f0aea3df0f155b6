package org.jvmreuse.hadoop3.task.job;

import java.net.Socket;
import java.util.Map;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.ClientContext;
import org.apache.hadoop.hdfs.net.BasicInetPeer;
import org.apache.hadoop.hdfs.protocol.DatanodeID;

/**
 * Uses HDFS client contexts as DFSClients do (Hadoop 3.x): makes the contexts "default" and
 * "second", and gives the default one's socket cache a connection to the "data node" listening on
 * port args[0], which starts the cache's expiry daemon. Prints the contexts and the cached peers.
 */
public final class HdfsClientContextUser {
    public static void main(String[] args) throws Exception {
        Configuration conf = new Configuration();
        ClientContext context = ClientContext.get("default", conf);
        ClientContext.get("second", conf);
        int port = Integer.parseInt(args[0]);
        DatanodeID dataNode = new DatanodeID("127.0.0.1", "localhost", "data-node", port, 0, 0, 0);
        context.getPeerCache().put(dataNode, new BasicInetPeer(new Socket("127.0.0.1", port)));
        System.out.println("contexts=" + new TreeSet<>(((Map<?, ?>) Statics.get(ClientContext.class, "CACHES")).keySet()));
        System.out.println("peers=" + context.getPeerCache().size());
    }
}
