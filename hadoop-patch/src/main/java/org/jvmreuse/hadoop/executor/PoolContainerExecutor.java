package org.jvmreuse.hadoop.executor;

import java.io.IOException;
import java.util.List;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.Shell;
import org.apache.hadoop.yarn.server.nodemanager.DefaultContainerExecutor;
import org.apache.hadoop.yarn.server.nodemanager.containermanager.container.Container;

/**
 * Hadoop 2.2's container executor that runs MapReduce containers (tasks and the MRAppMaster) in
 * the node's JVM pool. Select it with {@code yarn.nodemanager.container-executor.class}. What it
 * does is the same on every Hadoop version ({@link PoolLaunch}); this is 2.2's launch API around it.
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

    private PoolLaunch pool;

    @Override
    public void setConf(Configuration conf) {
        super.setConf(conf);
        pool = new PoolLaunch(conf, LOG);
    }

    @Override
    public int launchContainer(Container container, Path nmPrivateContainerScriptPath, Path nmPrivateTokensPath,
            String userName, String appId, Path containerWorkDir, List<String> localDirs, List<String> logDirs)
            throws IOException {
        java.nio.file.Path script = java.nio.file.Path.of(nmPrivateContainerScriptPath.toUri().getPath());
        java.nio.file.Path run = pool.prepare(container.getContainerId().toString(), script,
                java.nio.file.Path.of(nmPrivateTokensPath.toUri().getPath()), container.getLaunchContext().getEnvironment(),
                userName, container.getResource().getMemory());
        try {
            return super.launchContainer(container, run.equals(script) ? nmPrivateContainerScriptPath : new Path(run.toUri()),
                    nmPrivateTokensPath, userName, appId, containerWorkDir, localDirs, logDirs);
        } finally {
            pool.done(container.getContainerId().toString(), script, run);
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
}
