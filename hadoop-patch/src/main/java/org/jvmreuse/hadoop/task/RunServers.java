package org.jvmreuse.hadoop.task;

import static org.jvmreuse.hadoop.names.HadoopNames.RunServers.SERVER;
import static org.jvmreuse.hadoop.names.HadoopNames.RunServers.SERVER_THREADS;
import static org.jvmreuse.hadoop.names.HadoopNames.RunServers.WEB_APP_CONTEXT;

import java.lang.ref.WeakReference;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import org.apache.hadoop.ipc.Server;
import org.jvmreuse.hadoop.names.FieldName;

/**
 * Servers still running when a run ends: an MRAppMaster killed while its shutdown hook stopped
 * its services, or one that exited from its start, leaves its RPC servers and its web app
 * serving. Their threads catch what the slot stops them with (an IPC handler every Throwable of
 * the call it serves, Jetty's acceptor every one but ThreadDeath), so the slot would retire, and
 * their ports stay open. Stopping the servers, as the AM's own stop would, closes the ports and
 * lets their threads end. The slot serves nothing itself: every server of its Hadoop is a run's.
 */
final class RunServers {
    private RunServers() {
    }

    static void stop() {
        ipcServers().forEach(Server::stop);
        stopWebApp();
    }

    /** Each IPC server, found through its listener, responder and handler threads (inner classes of Server). */
    private static Set<Server> ipcServers() {
        Set<Server> running = Collections.newSetFromMap(new IdentityHashMap<>());
        SharedClasses.loaded(SERVER).ifPresent(serverClass -> {
            for (Thread t : liveThreads()) {
                if (t.getClass().getEnclosingClass() == serverClass) {
                    for (FieldName server : SERVER_THREADS) {
                        if (t.getClass().getName().equals(server.owner().name())) {
                            running.add((Server) Fields.get(t, server));
                        }
                    }
                }
            }
        });
        return running;
    }

    private static Thread[] liveThreads() {
        ThreadGroup root = Thread.currentThread().getThreadGroup();
        while (root.getParent() != null) {
            root = root.getParent();
        }
        Thread[] threads = new Thread[root.activeCount() + 16];
        int n;
        while ((n = root.enumerate(threads, true)) == threads.length) {
            threads = new Thread[threads.length * 2];
        }
        return Arrays.copyOf(threads, n);
    }

    /**
     * GuiceFilter keeps the servlet context of the web app it serves until the web app stops. Its
     * Jetty is 6 on Hadoop 2.x ({@code org.mortbay}) and 9 on 3.x ({@code org.eclipse.jetty}): the
     * context's {@code getContextHandler()}, the handler's {@code getServer()} and the server's
     * {@code isStarted()} and {@code stop()} have the same names in both, so they are called by name.
     */
    private static void stopWebApp() {
        SharedClasses.loaded(WEB_APP_CONTEXT.owner()).ifPresent(filter -> {
            Object context = ((WeakReference<?>) Fields.getStatic(filter, WEB_APP_CONTEXT)).get();
            if (context == null) {
                return;
            }
            Object server = Fields.callPublic(Fields.callPublic(context, "getContextHandler"), "getServer");
            if (server != null && Boolean.TRUE.equals(Fields.callPublic(server, "isStarted"))) {
                Fields.callPublic(server, "stop");
            }
        });
    }
}
