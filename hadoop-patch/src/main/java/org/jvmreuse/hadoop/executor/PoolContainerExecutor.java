package org.jvmreuse.hadoop.executor;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.Shell;
import org.apache.hadoop.yarn.server.nodemanager.DefaultContainerExecutor;
import org.apache.hadoop.yarn.server.nodemanager.containermanager.container.Container;

/**
 * A container executor that runs MapReduce containers (tasks and the MRAppMaster) in the node's
 * JVM pool. Select it with {@code yarn.nodemanager.container-executor.class}.
 *
 * <p>It is the {@link DefaultContainerExecutor} with one change: such a container's launch
 * script ends with the {@code jvmreuse} client instead of {@code java}
 * ({@link LaunchScriptRewriter}). The script still runs under the pid file, so YARN's liveness
 * checks, kill and signals reach the client, which forwards them to the program in its slot; the
 * exit code comes back the same way. Everything else takes the stock path unchanged: containers
 * that run neither program, other users' containers (a slot is reused only for the pool owner),
 * containers whose environment opts out with {@code JVMREUSE_POOL=off} (a job's tasks, or its
 * AM through {@code yarn.app.mapreduce.am.env}), application masters on a node that does not
 * pool them ({@code jvmreuse.pool.appmaster=false}), a node without pool settings, and programs
 * that ask for more memory than a slot gives ({@link SlotFit}). When the pool is down or busy the
 * client itself starts the program's own JVM, so a job never fails because of the pool.
 */
public class PoolContainerExecutor extends DefaultContainerExecutor {
    private static final Log LOG = LogFactory.getLog(PoolContainerExecutor.class);
    /** In a container's environment, {@code off} sends it down the stock path. */
    public static final String OPT_OUT_VARIABLE = "JVMREUSE_POOL";

    private PoolSettings settings;
    private LaunchScriptRewriter rewriter;
    private SlotFit fit;

    @Override
    public void setConf(Configuration conf) {
        super.setConf(conf);
        settings = PoolSettings.from(conf);
        rewriter = new LaunchScriptRewriter(settings);
        fit = new SlotFit(settings.slotHeapBytes, settings.slotMemoryMb, defaultHeapBytes());
        if (settings.disabledBecause != null) {
            LOG.warn("JVM pool not used, every container takes the stock launch path: " + settings.disabledBecause);
        } else {
            LOG.info("MapReduce tasks" + (settings.appMasters ? " and application masters" : "") + " run in the JVM pool at "
                    + settings.socket + " (client " + settings.client
                    + ", wait " + settings.waitMillis + " ms for a slot; tasks up to a heap of " + (settings.slotHeapBytes >> 20)
                    + " MB and a container of " + settings.slotMemoryMb + " MB)");
        }
    }

    @Override
    public int launchContainer(Container container, Path nmPrivateContainerScriptPath, Path nmPrivateTokensPath,
            String userName, String appId, Path containerWorkDir, List<String> localDirs, List<String> logDirs)
            throws IOException {
        String containerId = container.getContainerId().toString();
        recordShuffleSecret(containerId, nmPrivateTokensPath);
        java.nio.file.Path pooledScript = null;
        Path script = nmPrivateContainerScriptPath;
        LaunchScriptRewriter.Launch launch = null;
        String stockReason = stockReason(container, userName);
        if (stockReason == null) {
            java.nio.file.Path original = java.nio.file.Path.of(nmPrivateContainerScriptPath.toUri().getPath());
            launch = LaunchScriptRewriter.launch(Files.readString(original, StandardCharsets.UTF_8));
            stockReason = stockReason(launch, container.getResource().getMemory());
            if (stockReason == null) {
                pooledScript = original.resolveSibling(original.getFileName() + ".pool");
                Files.writeString(pooledScript, rewriter.rewrite(launch), StandardCharsets.UTF_8);
                script = new Path(pooledScript.toUri());
            }
        }
        if (stockReason == null) {
            LOG.info("Container " + containerId + ": " + launch.program().description + " handed to the JVM pool at "
                    + settings.socket);
        } else {
            LOG.info("Container " + containerId + ": stock launch (" + stockReason + ")");
        }
        try {
            return super.launchContainer(container, script, nmPrivateTokensPath, userName, appId,
                    containerWorkDir, localDirs, logDirs);
        } finally {
            if (pooledScript != null) {
                Files.deleteIfExists(pooledScript);
            }
        }
    }

    /**
     * Records the job's shuffle secret for this node's Shuffle Manager (the MPI shuffle), from
     * any of its containers, pooled or not, as they all run the job's maps. A container's launch
     * never fails for it: without it, the Shuffle Manager refuses the job's reads.
     */
    private void recordShuffleSecret(String containerId, Path tokens) {
        try {
            ShuffleSecretFile.record(java.nio.file.Path.of(tokens.toUri().getPath()), getConf());
        } catch (IOException | RuntimeException e) {
            LOG.warn("Container " + containerId + ": cannot record its job's shuffle secret for the MPI shuffle: " + e);
        }
    }

    /**
     * Signals the container's process group. Hadoop 2.2 runs {@code kill -SIG -PID}, which
     * procps-ng's kill (Debian 8+, RHEL 7+) parses as two options: it signals nothing and
     * succeeds, so YARN's kill never reached a container, pooled or not. With {@code --} it does.
     */
    @Override
    public boolean signalContainer(String user, String pid, Signal signal) throws IOException {
        if (!kill("0", pid)) {
            return false;
        }
        return kill(Integer.toString(signal.getValue()), pid) || !kill("0", pid);
    }

    private static boolean kill(String signal, String pid) throws IOException {
        if (!pid.matches("[1-9][0-9]*")) {
            throw new IOException("not a process id: '" + pid + "'");
        }
        try {
            new Shell.ShellCommandExecutor(new String[] {"kill", "-" + signal, "--", "-" + pid}).execute();
            return true;
        } catch (Shell.ExitCodeException e) {
            return false;
        }
    }

    /** The heap a JVM started here without -Xmx gets: a quarter of the node's memory. */
    private static long defaultHeapBytes() {
        var os = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean node ? node.getTotalMemorySize() / 4 : Long.MAX_VALUE;
    }

    /** Why a container that launches this program (null: none the pool knows) must take the stock path. */
    private String stockReason(LaunchScriptRewriter.Launch launch, long containerMb) {
        if (launch == null) {
            return "not a MapReduce task or application master";
        }
        if (launch.program() == LaunchScriptRewriter.Program.APP_MASTER && !settings.appMasters) {
            return "application masters are not pooled on this node (" + PoolSettings.APP_MASTERS + "=false)";
        }
        return fit.stockReason(launch.jvmOptions(), containerMb);
    }

    /** Why this container must take the stock path whatever it runs, or null if the pool may take it. */
    private String stockReason(Container container, String userName) {
        if (settings.disabledBecause != null) {
            return "no pool: " + settings.disabledBecause;
        }
        Map<String, String> env = container.getLaunchContext().getEnvironment();
        if (env != null && "off".equalsIgnoreCase(env.get(OPT_OUT_VARIABLE))) {
            return "the job set " + OPT_OUT_VARIABLE + "=off";
        }
        String owner = System.getProperty("user.name");
        if (!owner.equals(userName)) {
            return "container of user " + userName + ", pool of " + owner;
        }
        return null;
    }
}
