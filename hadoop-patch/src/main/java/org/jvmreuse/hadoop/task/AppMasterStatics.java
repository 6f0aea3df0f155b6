package org.jvmreuse.hadoop.task;

import java.lang.ref.WeakReference;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Statics that an MRAppMaster run sets (its own classes, the MapReduce and YARN helpers it calls,
 * the servlet filter of its web app): back to what a new JVM has. Which statics of those classes
 * are left alone, and why, is the audit in AppMasterStaticsAuditTest.
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
        if (nodeHttpPolicy == null) {
            try {
                Class<?> httpConfig = Class.forName("org.apache.hadoop.http.HttpConfig", true, SharedClasses.loader());
                nodeHttpPolicy = Fields.getStatic(httpConfig, "policy");
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    static void afterRun() {
        ifLoaded("org.apache.hadoop.http.HttpConfig", c -> Fields.setStatic(c, "policy", nodeHttpPolicy));
        ifLoaded("org.apache.hadoop.mapreduce.v2.util.MRWebAppUtil", c -> {
            Fields.setStatic(c, "httpPolicyInYarn", null);
            Fields.setStatic(c, "httpPolicyInJHS", null);
        });
        // the launch context of the first job's tasks: its job.jar, tokens and environment
        ifLoaded("org.apache.hadoop.mapreduce.v2.app.job.impl.TaskAttemptImpl", c -> {
            synchronized (Fields.getStatic(c, "commonContainerSpecLock")) {
                Fields.setStatic(c, "commonContainerSpec", null);
            }
            synchronized (Fields.getStatic(c, "classpathLock")) {
                ((AtomicBoolean) Fields.getStatic(c, "initialClasspathFlag")).set(false);
                Fields.setStatic(c, "initialClasspath", null);
                Fields.setStatic(c, "initialAppClasspath", null);
            }
            // what attempts without a status report return; the web UI's counter pages add groups to it
            becomeNew(Fields.getStatic(c, "EMPTY_COUNTERS"));
        });
        // history writers by job id: an AM's stop closes every one it finds, and its retry has the same id
        ifLoaded("org.apache.hadoop.mapreduce.jobhistory.JobHistoryEventHandler", c ->
                ((Map<?, ?>) Fields.getStatic(c, "fileMap")).clear());
        // NM tokens of the application, by node
        ifLoaded("org.apache.hadoop.yarn.client.api.NMTokenCache", c -> Fields.callStatic(c, "clearCache"));
        // initialised once per JVM from the first job's configuration (its topology mapping class)
        ifLoaded("org.apache.hadoop.yarn.util.RackResolver", c -> {
            synchronized (c) {
                Fields.setStatic(c, "initCalled", false);
                Fields.setStatic(c, "dnsToSwitchMapping", null);
            }
        });
        ifLoaded("org.apache.hadoop.service.AbstractService", c ->
                Fields.call(Fields.getStatic(c, "globalListeners"), "reset"));
        // the web app's filter pipeline (its Guice injector, and with it the whole AM) unless the
        // web app was stopped, which is what GuiceFilter.destroy() does
        ifLoaded("com.google.inject.servlet.GuiceFilter", c -> {
            Fields.callStatic(c, "reset");
            ((WeakReference<?>) Fields.getStatic(c, "servletContext")).clear();
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

    private static void ifLoaded(String name, Consumer<Class<?>> reset) {
        SharedClasses.loaded(name).ifPresent(reset);
    }
}
