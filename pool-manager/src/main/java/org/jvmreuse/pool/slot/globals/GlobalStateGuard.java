package org.jvmreuse.pool.slot.globals;

import java.util.ArrayList;
import java.util.List;

/**
 * Guards every kind of JDK-wide state a run can change: {@link #capture} before the run,
 * {@link Captured#restore} after it. A state whose JDK internals this JVM does not have fails
 * here, when the slot starts, not in a run.
 */
public final class GlobalStateGuard {
    private final List<GlobalState> states;

    public GlobalStateGuard(List<GlobalState> states) {
        this.states = List.copyOf(states);
    }

    /** Every kind of JDK-wide state the pool knows how to put back. */
    public static GlobalStateGuard forThisJvm() {
        return new GlobalStateGuard(List.of(
                new InstalledSecurityManager(), // first: while a run's manager is installed, it vets the rest
                new CachedRegistry("URL stream handler factory", "java.net.URL", "factory", "handlers"),
                new CachedRegistry("URL content handler factory", "java.net.URLConnection", "factory", "handlers"),
                new CachedRegistry("URLConnection per-protocol caching defaults", "java.net.URLConnection", null, "defaultCaching"),
                NetStates.defaults(), NetStates.socketFactories(), NetStates.tls(), NetStates.naming(),
                NetStates.securityObjects(), new SecurityProperties(), new SerialFilter(), new BeansContexts(),
                new JulLogging(),
                new JdbcDrivers(),
                new PlatformMBeans(),
                new MXBeanListeners(),
                new ManagementSettings(),
                new SignalHandlers(),
                new ThreadGroups(), // before the threads: a group's maximum caps their priority
                new JdkThreadState(),
                new MethodHandleConstants(),
                new DefaultUncaughtHandler(),
                new DefaultLocale(),
                new DefaultTimeZone(),
                new InstalledFileSystemProviders(),
                new ThreadNameCounters(),
                new JarUrlCache(),
                // the JDK's cache of the last two charsets looked up: one from a run's own provider would be found by the next run
                new StaticFields("Charset lookup cache").field("java.nio.charset.Charset", "cache1")
                        .field("java.nio.charset.Charset", "cache2")
        ));
    }

    public Captured capture() {
        List<GlobalState.Snapshot> snapshots = new ArrayList<>(states.size());
        for (GlobalState state : states) {
            snapshots.add(state.capture());
        }
        return new Captured(snapshots);
    }

    /** The JDK-wide state before one run. */
    public final class Captured {
        private final List<GlobalState.Snapshot> snapshots;

        private Captured(List<GlobalState.Snapshot> snapshots) {
            this.snapshots = snapshots;
        }

        /** Puts everything back; returns what could not be (empty if the slot is clean). */
        public List<String> restore(ClassLoader runLoader) {
            List<String> problems = new ArrayList<>();
            for (int i = 0; i < snapshots.size(); i++) {
                String problem;
                try {
                    problem = snapshots.get(i).restore(runLoader);
                } catch (RuntimeException e) {
                    problem = "putting it back failed: " + e;
                }
                if (problem != null) {
                    problems.add(states.get(i).name() + ": " + problem);
                }
            }
            return problems;
        }
    }
}
