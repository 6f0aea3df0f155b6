package org.jvmreuse.hadoop.task;

import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.ipc.ProtocolSignature;
import org.apache.hadoop.net.NetUtils;

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
        refuseCalls("org.apache.hadoop.ipc.ProtobufRpcEngine");
        refuseCalls("org.apache.hadoop.ipc.WritableRpcEngine");
    }

    private static void refuseCalls(String engine) {
        SharedClasses.loaded(engine).ifPresent(c -> {
            Object cache = Fields.getStatic(c, "CLIENTS");
            synchronized (cache) {
                for (Object client : ((Map<?, ?>) Fields.get(cache, "clients")).values()) {
                    ((AtomicBoolean) Fields.get(client, "running")).set(false);
                }
            }
        });
    }

    static void afterRun() {
        dropClients("org.apache.hadoop.ipc.ProtobufRpcEngine");
        dropClients("org.apache.hadoop.ipc.WritableRpcEngine");
        SharedClasses.loaded("org.apache.hadoop.ipc.Client").ifPresent(c ->
                ((AtomicInteger) Fields.getStatic(c, "callIdCounter")).set(0));
        SharedClasses.loaded("org.apache.hadoop.ipc.RpcClientUtil").ifPresent(c ->
                ((Map<?, ?>) Fields.getStatic(c, "signatureMap")).clear());
        SharedClasses.loaded("org.apache.hadoop.ipc.ProtocolSignature").ifPresent(c -> ProtocolSignature.resetCache());
        SharedClasses.loaded("org.apache.hadoop.net.NetUtils").ifPresent(c -> {
            Map<?, ?> staticResolutions = (Map<?, ?>) Fields.getStatic(NetUtils.class, "hostToResolved");
            synchronized (staticResolutions) {
                staticResolutions.clear();
            }
            ((Map<?, ?>) Fields.getStatic(NetUtils.class, "canonicalizedHostCache")).clear();
        });
    }

    private static void dropClients(String engine) {
        SharedClasses.loaded(engine).ifPresent(c -> {
            Object cache = Fields.getStatic(c, "CLIENTS");
            synchronized (cache) {
                ((Map<?, ?>) Fields.get(cache, "clients")).clear();
            }
        });
    }
}
