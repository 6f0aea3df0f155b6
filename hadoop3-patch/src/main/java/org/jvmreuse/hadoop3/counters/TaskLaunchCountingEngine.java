package org.jvmreuse.hadoop3.counters;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.net.SocketFactory;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.retry.RetryPolicy;
import org.apache.hadoop.ipc.AlignmentContext;
import org.apache.hadoop.ipc.Client;
import org.apache.hadoop.ipc.ProtocolProxy;
import org.apache.hadoop.security.UserGroupInformation;
import org.jvmreuse.hadoop.counters.TaskLaunchCounting;

/**
 * Hadoop 3.x's WritableRpcEngine for the task's umbilical, selected with
 * {@code rpc.engine.org.apache.hadoop.mapred.TaskUmbilicalProtocol}: 2.2's engine (the task launch
 * counters, {@link TaskLaunchCounting}, on the 8-argument getProxy 3.x still has) with the two
 * getProxy overloads 3.x added ({@code HadoopNames.TaskLaunchCountingEngine} lists all three;
 * 3.x's RPC calls the 10-argument one).
 */
public class TaskLaunchCountingEngine extends org.jvmreuse.hadoop.counters.TaskLaunchCountingEngine {
    @Override
    public <T> ProtocolProxy<T> getProxy(Class<T> protocol, long clientVersion, InetSocketAddress addr,
            UserGroupInformation ticket, Configuration conf, SocketFactory factory, int rpcTimeout,
            RetryPolicy connectionRetryPolicy, AtomicBoolean fallbackToSimpleAuth, AlignmentContext alignmentContext)
            throws IOException {
        return TaskLaunchCounting.counting(protocol, super.getProxy(protocol, clientVersion, addr, ticket, conf, factory,
                rpcTimeout, connectionRetryPolicy, fallbackToSimpleAuth, alignmentContext));
    }

    @Override
    public <T> ProtocolProxy<T> getProxy(Class<T> protocol, long clientVersion, Client.ConnectionId connId,
            Configuration conf, SocketFactory factory, AlignmentContext alignmentContext) throws IOException {
        return TaskLaunchCounting.counting(protocol, super.getProxy(protocol, clientVersion, connId, conf, factory,
                alignmentContext));
    }
}
