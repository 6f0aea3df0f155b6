package org.jvmreuse.boot;

import java.util.Map;

/**
 * A service a Pool Manager process runs beside its pool (the MPI Shuffle Manager), named on the
 * pool's command line ({@code --service CLASS --service-cp CP --service-opt KEY=VALUE}) and made
 * with its public no-argument constructor in a loader of its own.
 */
public interface PoolService {
    /**
     * Starts the service: {@code options} are the pool's {@code --service-opt}s for this host and
     * pool. Returns what this pool announces in the service directory. A service that throws is
     * logged and left out; the pool serves on without it.
     */
    String start(ServicePort port, Map<String, String> options, String host, int poolIndex) throws Exception;

    /** Stops the service when its pool ends. */
    void stop();
}
