package org.jvmreuse.shuffle.server;

import java.nio.file.Path;
import java.util.Map;
import org.jvmreuse.boot.PoolService;
import org.jvmreuse.boot.ServicePort;
import org.jvmreuse.shuffle.protocol.Announcement;

/**
 * The Shuffle Manager: a pool service ({@code PoolMain --service}, an
 * {@code org.jvmreuse.boot.PoolService} made with its public no-argument constructor) in each
 * Pool Manager process that serves its node's map outputs over MPI. Options
 * ({@code --service-opt}): {@code conf-dir} (the NodeManager's Hadoop configuration directory;
 * required) and {@code threads} (readers in concurrent mode, default 4). It announces the
 * NodeManager's shuffle port and host names. Each instance serves on its own port: the pool makes
 * one per process, a slot's warm-up one per warm-up shuffle; a second start of a serving instance
 * is refused, and a stop of one that does not serve does nothing.
 */
public final class ShuffleManager implements PoolService {
    private ShuffleServer server;

    public ShuffleManager() {
    }

    @Override
    public synchronized String start(ServicePort port, Map<String, String> options, String host, int poolIndex)
            throws Exception {
        if (server != null) {
            throw new IllegalStateException("this Shuffle Manager serves already");
        }
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
        server = new ShuffleServer(outputs, new JobSecrets(node.localDirs()), node.shufflePort(), threads, port);
        port.receiveWith(server::receive);
        port.lostWith(server::lost);
        port.log("info", "MPI shuffle: serving the map outputs in " + node.localDirs() + " for shuffle port "
                + node.shufflePort() + " (" + threads + " reader threads, index cache " + node.indexCacheBytes() / 1024 + " KiB)");
        return new Announcement(node.shufflePort(), node.hostNames()).format();
    }

    @Override
    public synchronized void stop() {
        if (server != null) {
            server.stop();
            server = null;
        }
    }
}
