package org.jvmreuse.hadoop3.executor;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.exceptions.ConfigurationException;
import org.apache.hadoop.yarn.server.nodemanager.DefaultContainerExecutor;
import org.apache.hadoop.yarn.server.nodemanager.containermanager.container.Container;
import org.apache.hadoop.yarn.server.nodemanager.executor.ContainerStartContext;
import org.jvmreuse.hadoop.executor.PoolLaunch;

/**
 * Hadoop 3.x's container executor that runs MapReduce tasks and application masters in the node's
 * JVM pool: 3.x's {@link DefaultContainerExecutor} with the change of Hadoop 2.2's
 * {@code org.jvmreuse.hadoop.executor.PoolContainerExecutor}, which {@link PoolLaunch} makes for
 * both (pool or stock, the rewritten launch script, the shuffle secret, one log line per
 * container). Select it with {@code yarn.nodemanager.container-executor.class}.
 *
 * <p>3.x launches through a {@link ContainerStartContext} and copies the NodeManager's private
 * launch script into the container's directory ({@link #copyFile}); a pooled container gets the
 * rewritten script there instead. A relaunch (YARN's container retry) goes through
 * {@link #launchContainer} too and is decided afresh. Signals, liveness and reaping stay 3.x's:
 * its kill runs bash's own {@code kill}, which signals the process group (2.2's needed a fix).
 */
public class PoolContainerExecutor extends DefaultContainerExecutor {
    private static final Log LOG = LogFactory.getLog(PoolContainerExecutor.class);

    private PoolLaunch pool;
    /** The rewritten script of each NodeManager private launch script being launched pooled. */
    private final Map<org.apache.hadoop.fs.Path, org.apache.hadoop.fs.Path> pooledScripts = new ConcurrentHashMap<>();

    @Override
    public void setConf(Configuration conf) {
        super.setConf(conf);
        pool = new PoolLaunch(conf, LOG);
    }

    @Override
    public int launchContainer(ContainerStartContext ctx) throws IOException, ConfigurationException {
        Container container = ctx.getContainer();
        org.apache.hadoop.fs.Path nmScript = ctx.getNmPrivateContainerScriptPath();
        Path script = Path.of(nmScript.toUri().getPath());
        Path run = pool.prepare(container.getContainerId().toString(), script,
                Path.of(ctx.getNmPrivateTokensPath().toUri().getPath()), container.getLaunchContext().getEnvironment(),
                ctx.getUser(), container.getResource().getMemorySize());
        if (!run.equals(script)) {
            pooledScripts.put(nmScript, new org.apache.hadoop.fs.Path(run.toUri()));
        }
        try {
            return super.launchContainer(ctx);
        } finally {
            pooledScripts.remove(nmScript);
            pool.done(container.getContainerId().toString(), script, run);
        }
    }

    /** Copies a pooled container's rewritten launch script where 3.x copies its private one. */
    @Override
    protected void copyFile(org.apache.hadoop.fs.Path src, org.apache.hadoop.fs.Path dst, String owner) throws IOException {
        org.apache.hadoop.fs.Path pooled = pooledScripts.get(src);
        super.copyFile(pooled != null ? pooled : src, dst, owner);
    }
}
