package org.jvmreuse.hadoop.task;

import static org.jvmreuse.hadoop.names.HadoopNames.IpcReset.CACHED_CLIENTS;
import static org.jvmreuse.hadoop.names.HadoopNames.IpcReset.CALL_ID_COUNTER;
import static org.jvmreuse.hadoop.names.HadoopNames.IpcReset.CANONICAL_HOSTS;
import static org.jvmreuse.hadoop.names.HadoopNames.IpcReset.CLIENT_RUNNING;
import static org.jvmreuse.hadoop.names.HadoopNames.IpcReset.ENGINE_CLIENTS;
import static org.jvmreuse.hadoop.names.HadoopNames.IpcReset.HOST_TO_RESOLVED;
import static org.jvmreuse.hadoop.names.HadoopNames.IpcReset.NET_UTILS;
import static org.jvmreuse.hadoop.names.HadoopNames.IpcReset.PROTOCOL_SIGNATURE;
import static org.jvmreuse.hadoop.names.HadoopNames.IpcReset.SIGNATURES;

import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.ipc.ProtocolSignature;
import org.apache.hadoop.net.NetUtils;
import org.jvmreuse.hadoop.names.FieldName;

/**
 * RPC clients cached per socket factory (ProtobufRpcEngine's and WritableRpcEngine's), the call
 * id counter, server protocol signatures, and the host name maps of NetUtils (Task adds the job's
 * static resolutions). A Client a task did not stop keeps its configuration and connections whose
 * threads the slot has stopped: a call through it would wait forever, so it is dropped (not
 * stopped: Client.stop() waits for those dead connections to go).
 */
final class IpcReset {
    private IpcReset() {
    }

    /**
     * When the run ends: every cached RPC client refuses new calls ("The client is stopped"), as
     * if the process were gone. The slot interrupts the run's threads one by one; an IPC
     * connection thread interrupted first fails the call the task's main thread waits on, and
     * Hadoop's Task repeats it: a second {@code done} the MRAppMaster already took fails the whole
     * job ("Invalid event TA_DONE"). A killed JVM never gets to repeat anything.
     */
    static void refuseCalls() {
        ENGINE_CLIENTS.forEach(IpcReset::refuseCalls);
    }

    private static void refuseCalls(FieldName engineClients) {
        SharedClasses.loaded(engineClients.owner()).ifPresent(c -> {
            Object cache = Fields.getStatic(c, engineClients);
            synchronized (cache) {
                for (Object client : ((Map<?, ?>) Fields.get(cache, CACHED_CLIENTS)).values()) {
                    ((AtomicBoolean) Fields.get(client, CLIENT_RUNNING)).set(false);
                }
            }
        });
    }

    static void afterRun() {
        ENGINE_CLIENTS.forEach(IpcReset::dropClients);
        SharedClasses.loaded(CALL_ID_COUNTER.owner()).ifPresent(c ->
                ((AtomicInteger) Fields.getStatic(c, CALL_ID_COUNTER)).set(0));
        SharedClasses.loaded(SIGNATURES.owner()).ifPresent(c -> ((Map<?, ?>) Fields.getStatic(c, SIGNATURES)).clear());
        SharedClasses.loaded(PROTOCOL_SIGNATURE).ifPresent(c -> ProtocolSignature.resetCache());
        SharedClasses.loaded(NET_UTILS).ifPresent(c -> {
            Map<?, ?> staticResolutions = (Map<?, ?>) Fields.getStatic(NetUtils.class, HOST_TO_RESOLVED);
            synchronized (staticResolutions) {
                staticResolutions.clear();
            }
            ((Map<?, ?>) Fields.getStatic(NetUtils.class, CANONICAL_HOSTS)).clear();
        });
    }

    private static void dropClients(FieldName engineClients) {
        SharedClasses.loaded(engineClients.owner()).ifPresent(c -> {
            Object cache = Fields.getStatic(c, engineClients);
            synchronized (cache) {
                ((Map<?, ?>) Fields.get(cache, CACHED_CLIENTS)).clear();
            }
        });
    }
}
