package org.jvmreuse.hadoop3.task.job;

import java.net.InetSocketAddress;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.protocolPB.ClientNamenodeProtocolPB;
import org.apache.hadoop.ipc.ProtobufRpcEngine2;
import org.apache.hadoop.ipc.RPC;

/**
 * With the argument "make", makes a NameNode proxy of Hadoop 3.x's protobuf RPC (a DFSClient's:
 * ProtobufRpcEngine2, whose cached Client has its own client id) and does not stop it; prints how
 * many RPC clients that engine has cached.
 */
public final class Rpc2Clients {
    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("make")) {
            Configuration conf = new Configuration();
            RPC.setProtocolEngine(conf, ClientNamenodeProtocolPB.class, ProtobufRpcEngine2.class);
            RPC.getProxy(ClientNamenodeProtocolPB.class, RPC.getProtocolVersion(ClientNamenodeProtocolPB.class),
                    new InetSocketAddress("127.0.0.1", 9), conf);
        }
        Object cache = Statics.get(ProtobufRpcEngine2.class, "CLIENTS");
        System.out.println("clients=" + ((Map<?, ?>) Statics.field(cache, "clients")).size());
    }
}
