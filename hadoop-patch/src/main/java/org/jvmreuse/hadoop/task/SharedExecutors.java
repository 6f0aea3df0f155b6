package org.jvmreuse.hadoop.task;

import static org.jvmreuse.hadoop.names.HadoopNames.SharedExecutors.INPUT_STREAM_CACHE_CLEANER;
import static org.jvmreuse.hadoop.names.HadoopNames.SharedExecutors.IPC_SEND_PARAMS;
import static org.jvmreuse.hadoop.names.HadoopNames.SharedExecutors.QUANTILES_SCHEDULER;

import java.security.AccessController;
import java.security.PrivilegedAction;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.jvmreuse.hadoop.names.FieldName;

/**
 * Thread pools that Hadoop keeps in static final fields (the IPC client's parameter senders,
 * used by every RPC call) outlive runs. Their workers would be started by a task's thread, so
 * the slot would take them for the run's and stop them when the run ends, and a pool whose
 * worker is stopped starts a replacement at once, which inherits the dead run's context class
 * loader. So these pools get a thread factory of the slot: workers the slot is told are its own
 * (the {@code slotThread} its run hooks' attach gives), in a group outside the application's,
 * not inheriting the caller's thread-locals, with the shared loader as context loader, made
 * without the caller's access control context (which would hold the job's protection domains,
 * and so its loader).
 */
final class SharedExecutors {
    private static final ThreadGroup GROUP = new ThreadGroup(root(), "hadoop-shared-pools");
    /** Outside a slot (this module's tests) nobody needs telling. */
    private static volatile Consumer<Thread> slotThreads = t -> { };

    private SharedExecutors() {
    }

    /** How the slot is told that a thread is its own, not the run's that starts it. */
    static void tellSlotWith(Consumer<Thread> slotThread) {
        slotThreads = slotThread;
    }

    /** Called once at slot start-up; pools of absent (hdfs) classes are skipped. */
    static void adopt(ClassLoader shared) {
        IPC_SEND_PARAMS.ifPresent(f -> adopt(shared, f, "IPC Parameter Sending Thread #"));
        adopt(shared, QUANTILES_SCHEDULER, "MutableQuantiles-");
        INPUT_STREAM_CACHE_CLEANER.ifPresent(f -> adopt(shared, f, "FileInputStreamCache Cleaner "));
    }

    private static void adopt(ClassLoader shared, FieldName field, String namePrefix) {
        Class<?> owner;
        try {
            owner = Class.forName(field.owner().name(), true, shared);
        } catch (ClassNotFoundException e) {
            return;
        }
        ThreadPoolExecutor pool = (ThreadPoolExecutor) Fields.getStatic(owner, field);
        pool.setThreadFactory(factory(shared, namePrefix));
    }

    @SuppressWarnings("removal") // AccessController: on JDKs that still capture contexts in threads
    private static ThreadFactory factory(ClassLoader shared, String namePrefix) {
        AtomicInteger count = new AtomicInteger();
        return work -> AccessController.doPrivileged((PrivilegedAction<Thread>) () -> {
            Thread t = new Thread(GROUP, work, namePrefix + count.getAndIncrement(), 0, false);
            t.setDaemon(true);
            t.setContextClassLoader(shared);
            slotThreads.accept(t);
            return t;
        });
    }

    private static ThreadGroup root() {
        ThreadGroup g = Thread.currentThread().getThreadGroup();
        while (g.getParent() != null) {
            g = g.getParent();
        }
        return g;
    }
}
