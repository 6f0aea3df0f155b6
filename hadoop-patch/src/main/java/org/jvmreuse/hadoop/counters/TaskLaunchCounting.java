package org.jvmreuse.hadoop.counters;

import java.io.Closeable;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import org.apache.hadoop.ipc.ProtocolProxy;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.TaskStatus;
import org.apache.hadoop.mapred.TaskUmbilicalProtocol;

/**
 * What the launch counters' RPC engine of every Hadoop version does with the proxy its
 * WritableRpcEngine made (2.2's {@link TaskLaunchCountingEngine}, 3.x's
 * {@code org.jvmreuse.hadoop3.counters.TaskLaunchCountingEngine}; each overrides its version's
 * {@code getProxy} overloads, {@code HadoopNames.TaskLaunchCountingEngine}): the umbilical's gets
 * the {@link TaskLaunches} counters added to every TaskStatus it sends.
 */
public final class TaskLaunchCounting {
    private TaskLaunchCounting() {
    }

    /** {@code stock} itself, or for the task's umbilical a proxy that adds the launch counters. */
    public static <T> ProtocolProxy<T> counting(Class<T> protocol, ProtocolProxy<T> stock) {
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
