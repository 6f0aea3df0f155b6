package org.jvmreuse.shuffle.server;

import java.nio.file.Path;
import java.util.Map;
import java.util.function.BiConsumer;
import org.jvmreuse.shuffle.protocol.Announcement;
import org.jvmreuse.shuffle.protocol.MessagePort;

/**
 * The Shuffle Manager: a pool service ({@code PoolMain --service}) in each Pool Manager process
 * that serves its node's map outputs over MPI. Options ({@code --service-opt}): {@code conf-dir}
 * (the NodeManager's Hadoop configuration directory; required) and {@code threads} (readers in
 * concurrent mode, default 4). It announces the NodeManager's shuffle port and host names.
 */
public final class ShuffleManager {
    private static ShuffleServer server;

    private ShuffleManager() {
    }

    @SuppressWarnings("unchecked")
    public static synchronized String start(Map<String, Object> port) throws Exception {
        Map<String, String> options = (Map<String, String>) port.get("options");
        BiConsumer<String, String> log = (BiConsumer<String, String>) port.get("log");
        String confDir = options.get("conf-dir");
        if (confDir == null) {
            throw new IllegalArgumentException("the Shuffle Manager needs --service-opt conf-dir=<NodeManager conf dir>");
        }
        int threads = Integer.parseInt(options.getOrDefault("threads", "4"));
        if (threads < 1) {
            throw new IllegalArgumentException("--service-opt threads must be >= 1, got " + threads);
        }
        NodeSettings node = NodeSettings.read(Path.of(confDir));
        MapOutputs outputs = new MapOutputs(node.localDirs(), System.getProperty("user.name"), node.indexCacheBytes());
        server = new ShuffleServer(outputs, new JobSecrets(node.localDirs()), node.shufflePort(), threads, MessagePort.of(port), log);
        MessagePort.receiveWith(port, server::receive);
        MessagePort.lostWith(port, server::lost);
        log.accept("info", "MPI shuffle: serving the map outputs in " + node.localDirs() + " for shuffle port "
                + node.shufflePort() + " (" + threads + " reader threads, index cache " + node.indexCacheBytes() / 1024 + " KiB)");
        return new Announcement(node.shufflePort(), node.hostNames()).format();
    }

    public static synchronized void stop() {
        if (server != null) {
            server.stop();
            server = null;
        }
    }
}
