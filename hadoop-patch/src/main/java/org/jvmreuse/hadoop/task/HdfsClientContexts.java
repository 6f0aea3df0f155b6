package org.jvmreuse.hadoop.task;

import static org.jvmreuse.hadoop.names.HadoopNames.HdfsClientReset.CLIENT_CONTEXTS;
import static org.jvmreuse.hadoop.names.HadoopNames.HdfsClientReset.CONTEXT_KEY_PROVIDERS;
import static org.jvmreuse.hadoop.names.HadoopNames.HdfsClientReset.CONTEXT_PEER_CACHE;
import static org.jvmreuse.hadoop.names.HadoopNames.HdfsClientReset.CONTEXT_SHORT_CIRCUIT_CACHES;
import static org.jvmreuse.hadoop.names.HadoopNames.HdfsClientReset.KEY_PROVIDERS_INVALIDATE;
import static org.jvmreuse.hadoop.names.HadoopNames.HdfsClientReset.PEER_CACHE_CLOSE;
import static org.jvmreuse.hadoop.names.HadoopNames.HdfsClientReset.SHORT_CIRCUIT_CACHE_CLOSE;

import java.util.Map;

/**
 * Hadoop 3.x's HDFS client contexts ({@code ClientContext.CACHES}, by context name): the first
 * DFSClient of a name makes one, and every later one in the JVM shares its caches, which hold
 * the run's sockets to data nodes, short-circuit replicas (block files' descriptors, shared
 * memory with the data node, their executors), key providers and its Configuration (the run's
 * loader). The run's threads, the caches' daemons among them, are ended by the slot; this closes
 * what the caches still hold and forgets the contexts, so the next run makes its own, as in a new
 * JVM. A context that cannot be closed makes the slot retire, naming it.
 */
final class HdfsClientContexts {
    private HdfsClientContexts() {
    }

    static void afterRun() {
        CLIENT_CONTEXTS.ifPresent(contexts -> SharedClasses.loaded(contexts.owner()).ifPresent(c -> {
            synchronized (c) { // as ClientContext.get
                Map<?, ?> made = (Map<?, ?>) Fields.getStatic(c, contexts);
                made.forEach((name, context) -> close(name, context));
                made.clear();
            }
        }));
    }

    private static void close(Object name, Object context) {
        try {
            Fields.call(Fields.get(context, CONTEXT_PEER_CACHE.orElseThrow()), PEER_CACHE_CLOSE.orElseThrow());
            for (Object cache : (Object[]) Fields.get(context, CONTEXT_SHORT_CIRCUIT_CACHES.orElseThrow())) {
                Fields.call(cache, SHORT_CIRCUIT_CACHE_CLOSE.orElseThrow());
            }
            Fields.call(Fields.get(context, CONTEXT_KEY_PROVIDERS.orElseThrow()), KEY_PROVIDERS_INVALIDATE.orElseThrow());
        } catch (RuntimeException e) {
            throw new IllegalStateException("the task left the HDFS client context " + name
                    + ", whose caches and threads could not be closed: " + e.getMessage(), e);
        }
    }
}
