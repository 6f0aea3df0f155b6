package org.jvmreuse.hadoop.counters;

import java.io.IOException;
import java.net.InetSocketAddress;
import javax.net.SocketFactory;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.retry.RetryPolicy;
import org.apache.hadoop.ipc.ProtocolProxy;
import org.apache.hadoop.ipc.WritableRpcEngine;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * Hadoop 2.2's WritableRpcEngine for the task's umbilical, selected with
 * {@code rpc.engine.org.apache.hadoop.mapred.TaskUmbilicalProtocol}: every TaskStatus a task
 * sends its MRAppMaster (statusUpdate, commitPending; the last one, before done, carries the
 * task's final counters) also carries the {@link TaskLaunches} counters, 1 in the counter of the
 * path the task took. It is the one place that runs in every task, pooled or stock, and sees its
 * counters without patching Hadoop. The MRAppMaster reads the same property for the umbilical's
 * server, which this engine leaves as it is.
 *
 * <p>YarnChild builds the proxy from a JobConf of the default resources and job.xml; RPC caches
 * the engine per protocol, in a slot across runs, so the path is decided at each call.
 *
 * <p>RPC calls one of RpcEngine's getProxy overloads: {@code HadoopNames.TaskLaunchCountingEngine}
 * lists those this engine overrides, and the names check fails on a Hadoop that has another.
 * What it does with the proxy is {@link TaskLaunchCounting}'s, which 3.x's engine shares.
 */
public class TaskLaunchCountingEngine extends WritableRpcEngine {
    @Override
    public <T> ProtocolProxy<T> getProxy(Class<T> protocol, long clientVersion, InetSocketAddress addr,
            UserGroupInformation ticket, Configuration conf, SocketFactory factory, int rpcTimeout,
            RetryPolicy connectionRetryPolicy) throws IOException {
        return TaskLaunchCounting.counting(protocol, super.getProxy(protocol, clientVersion, addr, ticket, conf, factory,
                rpcTimeout, connectionRetryPolicy));
    }
}
