package org.jvmreuse.pool.slot.globals;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.jvmreuse.pool.jdk.JdkInternals;

/**
 * Signal handlers a run installed with {@code sun.misc.Signal.handle} (or the JDK-internal
 * Signal). A run gets its signals from the pool over MPI ({@code TaskRun.signal}), never through
 * these handlers; but a handler would stay installed in the slot process, keep the run's loader,
 * and be what the next run's {@code Signal.handle} returns as the previous handler. The JDK keeps
 * the Java handlers in a table, put back as it was; a signal that had none before (its
 * disposition is the process's, as the JVM started: default, ignored or a native library's
 * handler) gets back default or ignore, read from /proc when the slot started; a native
 * handler's address cannot be known, so replacing one retires the slot.
 */
final class SignalHandlers implements GlobalState {
    private static final String SIGNAL = "jdk.internal.misc.Signal";
    private final Field handlers = JdkInternals.field(SIGNAL, "handlers");
    private final Field signals = JdkInternals.field(SIGNAL, "signals");
    private final Method handle = JdkInternals.method(SIGNAL, "handle", classOf(SIGNAL), classOf(SIGNAL + "$Handler"));
    private final Field number = JdkInternals.field(SIGNAL, "number");
    private final Object sigDfl = JdkInternals.get(JdkInternals.field(SIGNAL + "$Handler", "SIG_DFL"), null);
    private final Object sigIgn = JdkInternals.get(JdkInternals.field(SIGNAL + "$Handler", "SIG_IGN"), null);
    private final long ignoredAtStart;
    private final long caughtAtStart;

    SignalHandlers() {
        this(Path.of("/proc/self/status"));
    }

    /** {@code status}: a /proc status file, whose SigIgn and SigCgt masks tell the dispositions. */
    SignalHandlers(Path status) {
        long ignored = 0;
        long caught = 0;
        try {
            for (String line : Files.readAllLines(status)) {
                if (line.startsWith("SigIgn:")) {
                    ignored = Long.parseUnsignedLong(line.substring(7).trim(), 16);
                } else if (line.startsWith("SigCgt:")) {
                    caught = Long.parseUnsignedLong(line.substring(7).trim(), 16);
                }
            }
        } catch (IOException e) {
            caught = -1; // unknown: every replaced disposition retires the slot
        }
        this.ignoredAtStart = ignored;
        this.caughtAtStart = caught;
    }

    private static Class<?> classOf(String name) {
        try {
            return Class.forName(name);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("cannot reach " + name + " in Java " + Runtime.version(), e);
        }
    }

    @Override
    public String name() {
        return "signal handlers";
    }

    @Override
    public Snapshot capture() {
        Map<Object, Object> before = table(handlers);
        Map<Object, Object> handledBefore = table(signals);
        return runLoader -> {
            Map<Object, Object> now = table(handlers);
            Map<Object, Object> handledNow = table(signals);
            if (now.equals(before) && handledNow.equals(handledBefore)) {
                return null;
            }
            // Every handle() call puts a new Signal into the numbers' table; a native disposition
            // (ignore, default) leaves no Java handler, so the numbers tell what was handled.
            Set<Object> changed = new HashSet<>();
            for (Map.Entry<Object, Object> entry : handledNow.entrySet()) {
                if (handledBefore.get(entry.getKey()) != entry.getValue()) {
                    changed.add(entry.getValue());
                }
            }
            Set<Object> withHandlers = new HashSet<>(now.keySet());
            withHandlers.addAll(before.keySet());
            for (Object signal : withHandlers) {
                if (now.get(signal) != before.get(signal)) {
                    changed.add(signal);
                }
            }
            for (Object signal : changed) {
                Object was = before.get(signal);
                int n = (Integer) JdkInternals.get(number, signal);
                if (was == null) {
                    long bit = 1L << (n - 1);
                    if ((caughtAtStart & bit) != 0) {
                        return "the run replaced the native handler of signal " + signal + ", which cannot be put back";
                    }
                    was = (ignoredAtStart & bit) != 0 ? sigIgn : sigDfl;
                }
                try {
                    handle.invoke(null, signal, was);
                } catch (ReflectiveOperationException e) {
                    return "cannot put back the handler of signal " + signal + ": " + e.getCause();
                }
            }
            return null;
        };
    }

    private static Map<Object, Object> table(Field field) {
        Map<?, ?> table = (Map<?, ?>) JdkInternals.get(field, null);
        synchronized (table) {
            return new HashMap<>(table);
        }
    }
}
