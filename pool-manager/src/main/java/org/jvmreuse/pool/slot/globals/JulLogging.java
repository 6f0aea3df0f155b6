package org.jvmreuse.pool.slot.globals;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogManager;
import java.util.logging.Logger;
import org.jvmreuse.pool.jdk.JdkInternals;

/**
 * java.util.logging: the LogManager's configuration (its properties, whether the root handlers
 * are set up yet, configuration listeners) and every logger's handlers, level, filter,
 * useParentHandlers, resource bundle and parent. Fields are read directly: the root logger's
 * getHandlers() would set up the root handlers, which a new JVM does on its first log record.
 * Handlers the run added are closed, as LogManager's shutdown hook closes them when a JVM exits.
 * Loggers the run created are emptied and taken out of the LogManager (the next run's
 * getLogger makes a new one from the configuration, as in a new JVM), except JDK-internal
 * (system) loggers, which JDK classes keep in static fields and which are only emptied.
 */
final class JulLogging implements GlobalState {
    private final LogManager manager = LogManager.getLogManager();
    private final Field props = JdkInternals.field("java.util.logging.LogManager", "props");
    private final Field handlersState = JdkInternals.field("java.util.logging.LogManager", "globalHandlersState");
    private final Field closeOnReset = JdkInternals.field("java.util.logging.LogManager", "closeOnResetLoggers");
    private final Field listeners = JdkInternals.field("java.util.logging.LogManager", "listeners");
    private final Object userContext = JdkInternals.get(
            JdkInternals.field("java.util.logging.LogManager", "userContext"), manager);
    private final Object systemContext = JdkInternals.get(
            JdkInternals.field("java.util.logging.LogManager", "systemContext"), manager);
    private final Field namedLoggers = JdkInternals.field("java.util.logging.LogManager$LoggerContext", "namedLoggers");
    private final Method dispose = JdkInternals.method("java.util.logging.LogManager$LoggerWeakRef", "dispose");
    private final Field config = JdkInternals.field("java.util.logging.Logger", "config");
    private final Field bundle = JdkInternals.field("java.util.logging.Logger", "loggerBundle");
    private final Object noBundle = JdkInternals.get(JdkInternals.field("java.util.logging.Logger", "NO_RESOURCE_BUNDLE"), null);
    private final Field configHandlers = JdkInternals.field("java.util.logging.Logger$ConfigurationData", "handlers");

    @Override
    public String name() {
        return "java.util.logging";
    }

    @Override
    public Snapshot capture() {
        Object propsBefore = JdkInternals.get(props, manager);
        int stateBefore = (Integer) JdkInternals.get(handlersState, manager);
        Object[] closeOnResetBefore = closeOnResetList().toArray();
        Map<?, ?> listenerMap = listenerMap();
        List<Object> listenersBefore;
        synchronized (listenerMap) {
            listenersBefore = new ArrayList<>(listenerMap.keySet());
        }
        Map<String, Object> userBefore = new HashMap<>(named(userContext));
        Map<String, Object> systemBefore = new HashMap<>(named(systemContext));
        List<LoggerState> loggers = new ArrayList<>(userBefore.size() + systemBefore.size());
        captureLoggers(userBefore, loggers);
        captureLoggers(systemBefore, loggers);
        return runLoader -> {
            Set<Handler> kept = Collections.newSetFromMap(new IdentityHashMap<>());
            loggers.forEach(l -> kept.addAll(Arrays.asList(l.handlers)));
            dropNew(userContext, userBefore, kept, true);
            dropNew(systemContext, systemBefore, kept, false);
            for (LoggerState logger : loggers) {
                logger.restore(kept);
            }
            JdkInternals.set(props, manager, propsBefore);
            JdkInternals.set(handlersState, manager, stateBefore);
            CopyOnWriteArrayList<Object> closing = closeOnResetList();
            if (!Arrays.equals(closing.toArray(), closeOnResetBefore)) {
                closing.clear();
                closing.addAll(Arrays.asList(closeOnResetBefore));
            }
            synchronized (listenerMap) {
                listenerMap.keySet().retainAll(listenersBefore);
            }
            return null;
        };
    }

    @SuppressWarnings("unchecked")
    private CopyOnWriteArrayList<Object> closeOnResetList() {
        return (CopyOnWriteArrayList<Object>) JdkInternals.get(closeOnReset, manager);
    }

    private Map<?, ?> listenerMap() {
        return (Map<?, ?>) JdkInternals.get(listeners, manager);
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> named(Object context) {
        return (Map<String, Object>) JdkInternals.get(namedLoggers, context);
    }

    private void captureLoggers(Map<String, Object> refs, List<LoggerState> into) {
        for (Object ref : refs.values()) {
            Logger logger = (Logger) ((java.lang.ref.Reference<?>) ref).get();
            if (logger != null) {
                into.add(new LoggerState(logger));
            }
        }
    }

    /** Loggers created during the run: emptied, and (but for system loggers) taken out. */
    private void dropNew(Object context, Map<String, Object> before, Set<Handler> kept, boolean takeOut) {
        for (Map.Entry<String, Object> entry : new HashMap<>(named(context)).entrySet()) {
            Object ref = entry.getValue();
            if (before.get(entry.getKey()) == ref) {
                continue;
            }
            Logger logger = (Logger) ((java.lang.ref.Reference<?>) ref).get();
            if (logger != null) {
                for (Handler h : handlers(logger).toArray(new Handler[0])) {
                    closeIfNew(h, kept);
                }
                handlers(logger).clear();
                logger.setFilter(null);
                logger.setUseParentHandlers(true);
                logger.setLevel(null);
                JdkInternals.set(bundle, logger, noBundle);
            }
            if (takeOut) {
                try {
                    dispose.invoke(ref);
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException("cannot take logger " + entry.getKey() + " out of the LogManager", e);
                }
            }
        }
    }

    @SuppressWarnings("unchecked")
    private CopyOnWriteArrayList<Handler> handlers(Logger logger) {
        return (CopyOnWriteArrayList<Handler>) JdkInternals.get(configHandlers, JdkInternals.get(config, logger));
    }

    private static void closeIfNew(Handler handler, Set<Handler> kept) {
        if (kept.add(handler)) { // a handler on two loggers is closed once
            try {
                handler.close();
            } catch (RuntimeException e) {
                // as LogManager.reset: a handler that fails to close is dropped all the same
            }
        }
    }

    /** One logger as it was before the run. */
    private final class LoggerState {
        private final Logger logger;
        private final Object configBefore;
        private final Handler[] handlers;
        private final java.util.logging.Level level;
        private final java.util.logging.Filter filter;
        private final boolean useParentHandlers;
        private final Object bundleBefore;
        private final Logger parent;

        LoggerState(Logger logger) {
            this.logger = logger;
            this.configBefore = JdkInternals.get(config, logger);
            this.handlers = handlers(logger).toArray(new Handler[0]);
            this.level = logger.getLevel();
            this.filter = logger.getFilter();
            this.useParentHandlers = logger.getUseParentHandlers();
            this.bundleBefore = JdkInternals.get(bundle, logger);
            this.parent = logger.getParent();
        }

        void restore(Set<Handler> kept) {
            if (JdkInternals.get(config, logger) != configBefore) {
                JdkInternals.set(config, logger, configBefore);
            }
            CopyOnWriteArrayList<Handler> now = handlers(logger);
            Handler[] current = now.toArray(new Handler[0]);
            if (!Arrays.equals(current, handlers)) {
                for (Handler h : current) {
                    closeIfNew(h, kept);
                }
                now.clear();
                now.addAll(Arrays.asList(handlers));
            }
            if (logger.getLevel() != level) {
                logger.setLevel(level);
            }
            if (logger.getFilter() != filter) {
                logger.setFilter(filter);
            }
            if (logger.getUseParentHandlers() != useParentHandlers) {
                logger.setUseParentHandlers(useParentHandlers);
            }
            if (JdkInternals.get(bundle, logger) != bundleBefore) {
                JdkInternals.set(bundle, logger, bundleBefore);
            }
            if (parent != null && logger.getParent() != parent) {
                logger.setParent(parent);
            }
        }
    }
}
