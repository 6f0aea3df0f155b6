package org.jvmreuse.hadoop.counters;

import java.io.Closeable;
import java.io.IOException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.InetSocketAddress;
import javax.net.SocketFactory;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.retry.RetryPolicy;
import org.apache.hadoop.ipc.ProtocolProxy;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.ipc.WritableRpcEngine;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.TaskStatus;
import org.apache.hadoop.mapred.TaskUmbilicalProtocol;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * Hadoop's WritableRpcEngine for the task's umbilical, selected with
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
 */
public class TaskLaunchCountingEngine extends WritableRpcEngine {
    @Override
    public <T> ProtocolProxy<T> getProxy(Class<T> protocol, long clientVersion, InetSocketAddress addr,
            UserGroupInformation ticket, Configuration conf, SocketFactory factory, int rpcTimeout,
            RetryPolicy connectionRetryPolicy) throws IOException {
        ProtocolProxy<T> stock = super.getProxy(protocol, clientVersion, addr, ticket, conf, factory, rpcTimeout,
                connectionRetryPolicy);
        if (protocol != TaskUmbilicalProtocol.class) {
            return stock;
        }
        Object counting = Proxy.newProxyInstance(protocol.getClassLoader(), new Class<?>[] {protocol},
                new Counting(stock.getProxy()));
        // false: isMethodSupported would ask the server through the stock proxy's handler
        return new ProtocolProxy<>(protocol, protocol.cast(counting), false);
    }

    /** Adds the launch counters to the TaskStatus arguments, then calls the stock proxy. */
    private static final class Counting implements InvocationHandler, Closeable {
        private final Object stock;

        Counting(Object stock) {
            this.stock = stock;
        }

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            if (args != null) {
                for (Object arg : args) {
                    if (arg instanceof TaskStatus status && status.getCounters() != null) {
                        count(status.getCounters());
                    }
                }
            }
            try {
                return method.invoke(stock, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }

        /** RPC.stopProxy closes a proxy through its handler. */
        @Override
        public void close() {
            RPC.stopProxy(stock);
        }
    }

    /** Sets both counters (the task's counters are reported whole each time, so this is idempotent). */
    static void count(Counters counters) {
        TaskLaunches current = TaskLaunches.current();
        for (TaskLaunches c : TaskLaunches.values()) {
            counters.findCounter(c).setValue(c == current ? 1 : 0);
        }
    }
}
