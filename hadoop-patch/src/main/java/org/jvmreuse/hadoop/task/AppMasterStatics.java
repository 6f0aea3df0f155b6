package org.jvmreuse.hadoop.task;

import static org.jvmreuse.hadoop.names.HadoopNames.AppMasterStatics.APP_CLASSPATH;
import static org.jvmreuse.hadoop.names.HadoopNames.AppMasterStatics.CLASSPATH;
import static org.jvmreuse.hadoop.names.HadoopNames.AppMasterStatics.CLASSPATH_FLAG;
import static org.jvmreuse.hadoop.names.HadoopNames.AppMasterStatics.CLASSPATH_LOCK;
import static org.jvmreuse.hadoop.names.HadoopNames.AppMasterStatics.CLEAR_NM_TOKENS;
import static org.jvmreuse.hadoop.names.HadoopNames.AppMasterStatics.CONTAINER_SPEC;
import static org.jvmreuse.hadoop.names.HadoopNames.AppMasterStatics.CONTAINER_SPEC_LOCK;
import static org.jvmreuse.hadoop.names.HadoopNames.AppMasterStatics.EMPTY_COUNTERS;
import static org.jvmreuse.hadoop.names.HadoopNames.AppMasterStatics.GLOBAL_LISTENERS;
import static org.jvmreuse.hadoop.names.HadoopNames.AppMasterStatics.GUICE_FILTER_RESET;
import static org.jvmreuse.hadoop.names.HadoopNames.AppMasterStatics.HISTORY_FILES;
import static org.jvmreuse.hadoop.names.HadoopNames.AppMasterStatics.HTTP_POLICY;
import static org.jvmreuse.hadoop.names.HadoopNames.AppMasterStatics.MAIN_STARTED;
import static org.jvmreuse.hadoop.names.HadoopNames.AppMasterStatics.NM_TOKEN_CACHE;
import static org.jvmreuse.hadoop.names.HadoopNames.AppMasterStatics.POLICY_IN_JHS;
import static org.jvmreuse.hadoop.names.HadoopNames.AppMasterStatics.POLICY_IN_YARN;
import static org.jvmreuse.hadoop.names.HadoopNames.AppMasterStatics.RACK_MAPPING;
import static org.jvmreuse.hadoop.names.HadoopNames.AppMasterStatics.RACK_RESOLVER_INIT;
import static org.jvmreuse.hadoop.names.HadoopNames.AppMasterStatics.RESET_LISTENERS;
import static org.jvmreuse.hadoop.names.HadoopNames.AppMasterStatics.RESOURCE_REQUESTS;
import static org.jvmreuse.hadoop.names.HadoopNames.AppMasterStatics.WEB_APP_CONTEXT;

import java.lang.ref.WeakReference;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.jvmreuse.hadoop.names.ClassName;

/**
 * Statics that an MRAppMaster run sets (its own classes, the MapReduce and YARN helpers it calls,
 * the servlet filter of its web app): back to what a new JVM has, on Hadoop 2.2 and 3.x (the
 * names table has each version's). Which statics of those classes are left alone, and why, is the
 * audit in AppMasterStaticsAuditTest (2.2) and hadoop3-patch's AppMasterStaticsAudit3Test (3.x).
 */
final class AppMasterStatics {
    /** HttpConfig's policy as its initialiser computed it from the node's configuration; null until then. */
    private static Object nodeHttpPolicy;

    private AppMasterStatics() {
    }

    /**
     * MRAppMaster.main sets HttpConfig's policy to HTTP_ONLY, over the value the class initialiser
     * read from hadoop.ssl.enabled. A new JVM's initialiser reads the node's core-site.xml through
     * the run's context loader, so it runs here, in the first run, and its value is what every
     * later run gets back.
     */
    static void beforeRun() {
        HTTP_POLICY.ifPresent(policy -> {
            if (nodeHttpPolicy == null) {
                try {
                    Class<?> httpConfig = Class.forName(policy.owner().name(), true, SharedClasses.loader());
                    nodeHttpPolicy = Fields.getStatic(httpConfig, policy);
                } catch (ClassNotFoundException e) {
                    throw new IllegalStateException(e);
                }
            }
        });
    }

    static void afterRun() {
        MAIN_STARTED.ifPresent(started -> ifLoaded(started.owner(), c -> Fields.setStatic(c, started, false)));
        HTTP_POLICY.ifPresent(policy -> ifLoaded(policy.owner(), c -> Fields.setStatic(c, policy, nodeHttpPolicy)));
        ifLoaded(POLICY_IN_YARN.owner(), c -> {
            Fields.setStatic(c, POLICY_IN_YARN, null);
            Fields.setStatic(c, POLICY_IN_JHS, null);
        });
        // the launch context of the first job's tasks: its job.jar, tokens and environment
        ifLoaded(CONTAINER_SPEC.owner(), c -> {
            synchronized (Fields.getStatic(c, CONTAINER_SPEC_LOCK)) {
                Fields.setStatic(c, CONTAINER_SPEC, null);
            }
            synchronized (Fields.getStatic(c, CLASSPATH_LOCK)) {
                ((AtomicBoolean) Fields.getStatic(c, CLASSPATH_FLAG)).set(false);
                Fields.setStatic(c, CLASSPATH, null);
                Fields.setStatic(c, APP_CLASSPATH, null);
            }
            // what attempts without a status report return; the web UI's counter pages add groups to it
            becomeNew(Fields.getStatic(c, EMPTY_COUNTERS));
            // 3.x: the container size of each task type, as the first job that ran here asked for it
            RESOURCE_REQUESTS.ifPresent(cache -> ((Map<?, ?>) Fields.getStatic(c, cache)).clear());
        });
        // history writers by job id: an AM's stop closes every one it finds, and its retry has the same id
        ifLoaded(HISTORY_FILES.owner(), c -> ((Map<?, ?>) Fields.getStatic(c, HISTORY_FILES)).clear());
        // NM tokens of the application, by node
        ifLoaded(CLEAR_NM_TOKENS.owner(), c -> {
            if (CLEAR_NM_TOKENS.isStatic()) {
                Fields.callStatic(c, CLEAR_NM_TOKENS);
            } else {
                Fields.call(Fields.getStatic(c, NM_TOKEN_CACHE.orElseThrow()), CLEAR_NM_TOKENS);
            }
        });
        // initialised once per JVM from the first job's configuration (its topology mapping class)
        ifLoaded(RACK_RESOLVER_INIT.owner(), c -> {
            synchronized (c) {
                Fields.setStatic(c, RACK_RESOLVER_INIT, false);
                Fields.setStatic(c, RACK_MAPPING, null);
            }
        });
        ifLoaded(GLOBAL_LISTENERS.owner(), c -> Fields.call(Fields.getStatic(c, GLOBAL_LISTENERS), RESET_LISTENERS));
        // the web app's filter pipeline (its Guice injector, and with it the whole AM) unless the
        // web app was stopped, which is what GuiceFilter.destroy() does
        ifLoaded(GUICE_FILTER_RESET.owner(), c -> {
            Fields.callStatic(c, GUICE_FILTER_RESET);
            ((WeakReference<?>) Fields.getStatic(c, WEB_APP_CONTEXT)).clear();
        });
    }

    /** Gives {@code target} the instance fields of a new object of its class (no-argument constructor). */
    private static void becomeNew(Object target) {
        Object fresh = Fields.newInstance(target.getClass());
        for (Class<?> k = target.getClass(); k != Object.class; k = k.getSuperclass()) {
            for (Field f : k.getDeclaredFields()) {
                if (!Modifier.isStatic(f.getModifiers())) {
                    f.setAccessible(true);
                    try {
                        f.set(target, f.get(fresh));
                    } catch (IllegalAccessException e) {
                        throw new IllegalStateException(e);
                    }
                }
            }
        }
    }

    private static void ifLoaded(ClassName name, Consumer<Class<?>> reset) {
        SharedClasses.loaded(name).ifPresent(reset);
    }
}
